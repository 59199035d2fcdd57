/**
 * The feed parser's public surface: the publisher actors, the API and the CLI import from here.
 * Parsing runs in the worker pool through `parse-task.ts`; `parseFeedDate` is shared with
 * anything else that reads publisher dates.
 */
export { parseFeed, DEFAULT_MAX_BYTES } from './parse.js';
export { parseFeedDate, feedDateIso } from './dates.js';
export { FeedParseError, type FeedParseCode } from './errors.js';
export { fromTaskError, type ParseTask } from './parse-task.js';
export { sanitizeHtml } from './sanitize.js';
export { htmlToText } from './plain-text.js';
export type { Enclosure, FeedEntry, FeedFormat, FeedInfo, FeedMeta, ParsedFeed, ParseOptions } from './types.js';
