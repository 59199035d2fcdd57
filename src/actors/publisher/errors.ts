import { NewsaggError } from '../../runtime/errors.js';

/** A feed body the parser rejected; the publisher counts it as a failed poll. */
export class FeedUnparseableError extends NewsaggError {
  constructor(url: string, cause: unknown) {
    super('FEED_UNPARSEABLE', `feed ${url} could not be parsed`, { cause, userMessage: 'the feed could not be parsed' });
  }
}

/** The fetcher answered a status the publisher cannot use (it normally throws these itself). */
export class UnexpectedStatusError extends NewsaggError {
  constructor(url: string, status: number) {
    super('FETCH_HTTP_ERROR', `feed ${url} answered HTTP ${status}`, { userMessage: `the feed answered HTTP ${status}` });
  }
}

/** A poll cut short because its publisher moved to another node (not the feed's failure). */
export class PollHandedOverError extends NewsaggError {
  constructor() {
    super('POLL_HANDED_OVER', 'the publisher moved to another node during the poll');
  }
}

/** An OPML document that cannot be read at all (single bad outlines are reported, not thrown). */
export class OpmlInvalidError extends NewsaggError {
  constructor(message: string, cause?: unknown) {
    super('OPML_INVALID', message, { cause });
  }
}

/** The code and Retry-After of anything a fetch or parse threw. */
export function failureOf(err: unknown): { code: string; message: string; retryAfterMs: number | null } {
  const code = err instanceof NewsaggError ? err.code : 'FETCH_FAILED';
  const message = err instanceof Error ? err.message : String(err);
  const ra = (err as { retryAfterMs?: unknown } | null)?.retryAfterMs;
  return { code, message: message.slice(0, 200), retryAfterMs: typeof ra === 'number' && ra > 0 ? ra : null };
}
