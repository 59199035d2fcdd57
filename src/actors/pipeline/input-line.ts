import { z } from 'zod';
import { NewsaggError } from '../../runtime/errors.js';
import type { RawArticle } from '../ingest/types.js';

/**
 * One input line of `newsagg process`: `{id?, url, title, summary?, text?, publisher?,
 * published_at, feed_category?, categories?, publisher_country?, language?, publisher_language?}`:
 * `categories` are the entry's own tags (strings), `language` the feed's declared language and
 * `publisher_language` the publisher's (both priors for the detected language). A missing or empty `publisher`
 * is allowed (the URL's host stands in); `published_at` is ISO-8601 text or a number (epoch
 * milliseconds, or seconds when below 1e11). Unknown keys are ignored.
 */
const LineSchema = z.object({
  id: z.union([z.string(), z.number()]).nullish(),
  url: z.string().min(1),
  title: z.string(),
  summary: z.string().nullish(),
  text: z.string().nullish(),
  publisher: z.string().nullish(),
  published_at: z.union([z.string().min(1), z.number()]),
  feed_category: z.string().nullish(),
  categories: z.array(z.string()).nullish(),
  publisher_country: z.string().nullish(),
  language: z.string().nullish(),
  publisher_language: z.string().nullish(),
});

export type InputErrorCode = 'INVALID_JSON' | 'INVALID_ARTICLE' | 'INVALID_URL' | 'INVALID_DATE';

/** An input line that cannot be processed; the run reports it and goes on. */
export class InvalidInputError extends NewsaggError {
  /** the line's `id` when the line was JSON with one, so the error line can name it */
  readonly inputId: string | null;

  constructor(code: InputErrorCode, message: string, inputId: string | null = null, cause?: unknown) {
    super(code, message, { cause });
    this.inputId = inputId;
  }
}

function idOf(json: unknown): string | null {
  if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
  const id = (json as { id?: unknown }).id;
  return typeof id === 'string' && id !== '' ? id : typeof id === 'number' && Number.isFinite(id) ? String(id) : null;
}

/** Parses one JSON line into a raw article, or throws `InvalidInputError` saying what is wrong. */
export function parseInputLine(line: string): RawArticle {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    throw new InvalidInputError('INVALID_JSON', `not valid JSON: ${(err as Error).message}`, null, err);
  }
  const inputId = idOf(json);
  const r = LineSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : 'line';
    throw new InvalidInputError('INVALID_ARTICLE', `${where}: ${issue.message}`, inputId, r.error);
  }
  const d = r.data;
  const out: RawArticle = { url: d.url, title: d.title, published_at: isoDate(d.published_at, inputId) };
  if (inputId !== null) out.id = inputId;
  if (d.summary) out.summary = d.summary;
  if (d.text) out.text = d.text;
  if (d.publisher) out.publisher = d.publisher;
  if (d.feed_category) out.feed_category = d.feed_category;
  if (d.categories && d.categories.length > 0) out.categories = d.categories;
  if (d.publisher_country) out.publisher_country = d.publisher_country;
  if (d.language) out.language = d.language;
  if (d.publisher_language) out.publisher_language = d.publisher_language;
  return out;
}

/** `published_at` as an ISO instant: text as written (when readable) or a number (ms, or s when below 1e11). */
function isoDate(v: string | number, inputId: string | null): string {
  const ms = typeof v === 'number' ? (v < 1e11 ? v * 1000 : v) : Date.parse(v);
  if (!Number.isFinite(ms) || Math.abs(ms) > 8.64e15) throw new InvalidInputError('INVALID_DATE', `published_at: not a date: ${JSON.stringify(v).slice(0, 100)}`, inputId);
  return new Date(ms).toISOString();
}
