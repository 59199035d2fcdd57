import { z } from 'zod';
import { NewsaggError } from '../../runtime/errors.js';

/** One input line of `newsagg process` (DESIGN §6). */
export const RawArticleSchema = z.object({
  id: z.string().min(1).nullish(),
  url: z.string().min(1),
  title: z.string(),
  summary: z.string().nullish(),
  text: z.string().nullish(),
  publisher: z.string().min(1),
  published_at: z.union([z.string().min(1), z.number()]),
  feed_category: z.string().nullish(),
  publisher_country: z.string().nullish(),
  language: z.string().nullish(),
});

export type RawArticle = z.infer<typeof RawArticleSchema>;

/** An input line that cannot be processed; the pipeline reports it and goes on. */
export class InvalidInputError extends NewsaggError {
  constructor(code: 'INVALID_JSON' | 'INVALID_ARTICLE' | 'INVALID_URL' | 'INVALID_DATE', message: string, cause?: unknown) {
    super(code, message, { cause });
  }
}

/** Parses one JSON line into a raw article, or throws `InvalidInputError` saying what is wrong. */
export function parseRawArticle(line: string): RawArticle {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch (err) {
    throw new InvalidInputError('INVALID_JSON', `not valid JSON: ${(err as Error).message}`, err);
  }
  const r = RawArticleSchema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : 'line';
    throw new InvalidInputError('INVALID_ARTICLE', `${where}: ${issue.message}`, r.error);
  }
  return r.data;
}

/** `published_at` as ms since epoch: ISO-8601 text or a number (ms, or s when below 1e11). */
export function publishedMs(v: string | number): number {
  const ms = typeof v === 'number' ? (v < 1e11 ? v * 1000 : v) : Date.parse(v);
  if (!Number.isFinite(ms)) throw new InvalidInputError('INVALID_DATE', `published_at: not a date: ${JSON.stringify(v)}`);
  return ms;
}
