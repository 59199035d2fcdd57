import { canonicalUrl, urlHash } from '../dedup/canonical-url.js';
import { fingerprint } from '../dedup/fingerprint.js';
import { simhashHex } from '../dedup/simhash.js';
import { describeError, NewsaggError } from '../../runtime/errors.js';
import { DedupStage } from './dedup-stage.js';
import { parseRawArticle, publishedMs } from './raw-article.js';
import type { LineResult, PipelineItem, Stage } from './types.js';

export type { LineResult, PipelineItem, ProcessOutput, Stage } from './types.js';

export interface ProcessOptions {
  /** dedup window (default 72 h) */
  windowMs?: number;
  /** partitions per block table */
  partitions?: number;
  /** stages after the built-in dedup stage (enrichment, clustering) */
  extraStages?: Stage[];
}

/**
 * The offline processing pipeline behind `newsagg process`: the same canonical URL,
 * fingerprint and dedup code as the online path, over JSON lines, in input order. Each batch
 * goes through the features step (parse, canonical URL, fingerprint) and then every stage in
 * order; a later issue adds enrichment and story clustering by appending stages:
 *
 *   const p = await ProcessPipeline.create({ extraStages: [enrichStage, storyStage] });
 */
export class ProcessPipeline {
  private constructor(readonly stages: readonly Stage[]) {}

  static async create(opts: ProcessOptions = {}): Promise<ProcessPipeline> {
    const dedup = await DedupStage.create({ windowMs: opts.windowMs, partitions: opts.partitions });
    return new ProcessPipeline([dedup, ...(opts.extraStages ?? [])]);
  }

  /** Processes numbered lines; returns one result per line, in the same order. */
  async processBatch(lines: readonly { line: number; text: string }[]): Promise<LineResult[]> {
    const results: (LineResult | PipelineItem)[] = lines.map(({ line, text }) => {
      try {
        return features(line, text);
      } catch (err) {
        return { line, error: errorOf(err) };
      }
    });
    const items = results.filter((r): r is PipelineItem => 'raw' in r);
    for (const stage of this.stages) await stage.run(items);
    return results.map((r) => ('raw' in r ? { line: r.line, output: r.out } : r));
  }
}

/** Parse and fingerprint one line; throws `InvalidInputError` for a bad line. */
function features(line: number, text: string): PipelineItem {
  const raw = parseRawArticle(text);
  const publishedAt = publishedMs(raw.published_at);
  const canonical = canonicalUrl(raw.url);
  const hash = urlHash(canonical);
  const fp = fingerprint(raw.title, raw.summary, raw.text);
  return {
    line,
    raw,
    publishedAt,
    canonicalUrl: canonical,
    urlHash: hash,
    fp,
    update: false,
    out: {
      id: raw.id ?? hash,
      url: raw.url,
      duplicate_of: null,
      story_id: null,
      category: null,
      region: null,
      language: null,
      entities: null,
      simhash: simhashHex(fp.hi, fp.lo),
    },
  };
}

function errorOf(err: unknown): { code: string; message: string } {
  if (err instanceof NewsaggError) return { code: err.code, message: err.userMessage };
  return { code: 'INTERNAL', message: describeError(err) };
}

/**
 * Streams results for an async source of lines, in input order, batching for the index. Blank
 * lines are skipped (they still count for line numbers).
 */
export async function* processLines(pipeline: ProcessPipeline, source: AsyncIterable<string>, batchSize = 512): AsyncGenerator<LineResult> {
  let batch: { line: number; text: string }[] = [];
  let n = 0;
  for await (const text of source) {
    n++;
    if (text.trim() === '') continue;
    batch.push({ line: n, text });
    if (batch.length >= batchSize) {
      yield* await pipeline.processBatch(batch);
      batch = [];
    }
  }
  if (batch.length) yield* await pipeline.processBatch(batch);
}
