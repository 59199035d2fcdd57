import { NewsaggError } from '../../runtime/errors.js';

/** Stable codes shared with the publisher actors and the API. */
export type FeedParseCode =
  | 'PARSE_MALFORMED'
  | 'PARSE_TOO_LARGE'
  | 'PARSE_UNSUPPORTED'
  | 'PARSE_ENTITY_LIMIT'
  | 'PARSE_TOO_DEEP';

/** A feed body could not be turned into entries; `code` says why. */
export class FeedParseError extends NewsaggError {
  declare readonly code: FeedParseCode;

  constructor(code: FeedParseCode, message: string, cause?: unknown) {
    super(code, message, { cause, userMessage: message });
  }
}

/** Type guard that survives structured cloning (workers return plain objects). */
export function isFeedParseError(err: unknown): err is FeedParseError {
  return err instanceof FeedParseError;
}
