import { encode } from '@msgpack/msgpack';
import { describeError } from '../../runtime/errors.js';
import type { Logger } from '../../runtime/log.js';
import type { Metrics } from '../../runtime/metrics.js';
import type { Sql } from '../../runtime/sql.js';
import { recordRejected } from '../store/rejected.js';
import { MAX_TITLE, MAX_URL } from './caps.js';
import type { RawArticle } from './types.js';

/**
 * Raw articles made to fit one message of the ingest log (NATS refuses a message over its max
 * payload, 1 MiB by default). Publishers already cut every field to the caps of caps.ts, which
 * keeps an article to a few hundred KB; other callers, or a server with a smaller max payload,
 * may still hand in one that is too large. Such an article loses, in turn, its transient body
 * text, most of its summary and the tail of its headline; one still too large (its URL alone)
 * is set aside with the reason, and the others go on. Pure but for msgpack sizing.
 */
export interface Fitted {
  fit: RawArticle[];
  /** articles trimmed to fit */
  trimmed: number;
  /** articles that could not be made to fit */
  tooLarge: { article: RawArticle; bytes: number }[];
}

/** The summary an article keeps when it has to be trimmed: a stored snippet is 300 characters. */
const TRIMMED_SUMMARY = 1_000;

/** Upper bound of an article's encoded size from its string lengths (a UTF-16 unit is at most 3 UTF-8 bytes). */
function bound(a: RawArticle): number {
  let n = 256;
  for (const v of Object.values(a)) {
    if (typeof v === 'string') n += 3 * v.length + 5;
    else if (Array.isArray(v)) for (const x of v) n += typeof x === 'string' ? 3 * x.length + 5 : 16;
    else n += 16;
  }
  return n;
}

export function fitToLog(articles: readonly RawArticle[], maxBytes: number, sizeOf: (a: RawArticle) => number = (a) => encode(a).length): Fitted {
  const out: Fitted = { fit: [], trimmed: 0, tooLarge: [] };
  for (const a of articles) {
    // nearly every article is far below the limit: only a possibly large one is encoded to be sure
    if (bound(a) <= maxBytes || sizeOf(a) <= maxBytes) {
      out.fit.push(a);
      continue;
    }
    let t: RawArticle = { ...a };
    delete t.text;
    if (sizeOf(t) > maxBytes && t.summary) t = { ...t, summary: t.summary.slice(0, TRIMMED_SUMMARY) };
    if (sizeOf(t) > maxBytes && t.categories) t = { ...t, categories: null };
    if (sizeOf(t) > maxBytes) t = { ...t, title: t.title.slice(0, MAX_TITLE) };
    if (sizeOf(t) > maxBytes && t.summary) t = { ...t, summary: null };
    const bytes = sizeOf(t);
    if (bytes <= maxBytes) {
      out.fit.push(t);
      out.trimmed++;
    } else out.tooLarge.push({ article: a, bytes });
  }
  return out;
}

/**
 * The articles that fit one message of the JetStream log, trimmed where needed; one that cannot be
 * made to fit is recorded in `rejected_articles` (`too_large`) instead, and the rest go on.
 */
export async function fitOrSetAside(articles: readonly RawArticle[], maxBytes: number, node: { sql: Sql; log: Logger; metrics: Metrics }): Promise<RawArticle[]> {
  const f = fitToLog(articles, maxBytes);
  if (f.trimmed > 0) node.log.debug({ articles: f.trimmed, max_bytes: maxBytes }, 'articles trimmed to fit the ingest log');
  if (f.tooLarge.length === 0) return f.fit;
  node.metrics.counter('newsagg_ingest_rejected_total', 'Articles ingest set aside instead of storing, by reason', ['reason']).inc({ reason: 'too_large' }, f.tooLarge.length);
  const records = f.tooLarge.map(({ article, bytes }) => ({
    url: article.url,
    publisher_id: article.publisher ?? null,
    reason: 'too_large',
    code: 'ITEM_TOO_LARGE',
    message: `the article takes ${bytes} bytes even trimmed, over the ${maxBytes} bytes one message of the ingest log holds`,
    article: { url: article.url.slice(0, MAX_URL), title: article.title.slice(0, MAX_TITLE), publisher: article.publisher ?? null, published_at: article.published_at },
  }));
  await recordRejected(node.sql, records).catch((err: unknown) => node.log.error({ err: describeError(err), count: records.length }, 'rejected articles not recorded'));
  return f.fit;
}
