import { DEFAULT_WINDOW_MS } from '../dedup/dedup-shard.js';
import { DedupIndex, localContext } from '../dedup/dedup-index.js';
import { UrlIndex } from '../dedup/url-index.js';
import { warmUpEnrichment } from '../enrich/enrich.js';
import { Decider, type KnownArticle } from '../ingest/decide.js';
import { prepareBatch } from '../ingest/prepare.js';
import type { RawArticle } from '../ingest/types.js';
import type { OriginalInfo } from '../store/articles.js';
import { storyClusterBehaviour, type ClusterBatchReply, type ClusterItem, type StoryClusterState } from '../stories/story-cluster.js';
import type { ActorContext } from '../../runtime/actor.js';
import { describeError, NewsaggError } from '../../runtime/errors.js';
import { InvalidInputError, parseInputLine } from './input-line.js';

/** One output line of `newsagg process` for an article. */
export interface ProcessOutput {
  id: string;
  url: string;
  duplicate_of: string | null;
  story_id: string | null;
  category: string | null;
  region: string | null;
  language: string | null;
  entities: unknown[] | null;
  simhash: string;
}

/** One output line per input line: the article's result, or why the line was refused. */
export type LineResult =
  | { line: number; output: ProcessOutput }
  | { line: number; id: string | null; error: { code: string; message: string } };

export interface ProcessOptions {
  /** dedup window (default 72 h) */
  windowMs?: number;
  /** story window (default 48 h) */
  activeWindowMs?: number;
  /** partitions per block table */
  partitions?: number;
  /** `now` for the CPU stage: undated articles get it, future ones are brought back to it (default: the clock) */
  now?: () => number;
}

/** Expire old fingerprints and URLs whenever event time has moved on by this much. */
const EXPIRE_EVERY_MS = 3600_000;

/**
 * The processing pipeline behind `newsagg process`: the node's own stages, run in this thread
 * over JSON lines in input order. The same CPU stage (text made safe, canonical URL, fingerprint,
 * enrichment) and the same decisions (exact dedup by URL, near duplicates through the dedup
 * shards and coordinator, clustering by the story actor's behaviour); only the surroundings
 * differ: URLs are remembered in memory instead of looked up in a database, the shards and the
 * story actor are driven directly instead of through a worker and a mailbox, time is the
 * articles' own (`published_at`), and the caller's ids are kept so the output refers to them.
 */
export class ProcessPipeline {
  private watermark = -Infinity;
  private lastExpire = -Infinity;

  private constructor(
    private readonly decider: Decider,
    private readonly index: DedupIndex,
    private readonly urls: UrlIndex<KnownArticle & { seenAt: number }>,
    private readonly originals: UrlIndex<OriginalInfo & { seenAt: number }>,
    private readonly now: () => number,
  ) {}

  static async create(opts: ProcessOptions = {}): Promise<ProcessPipeline> {
    warmUpEnrichment();
    const index = await DedupIndex.create({ windowMs: opts.windowMs, partitions: opts.partitions });
    const urls = new UrlIndex<KnownArticle & { seenAt: number }>(opts.windowMs ?? DEFAULT_WINDOW_MS);
    // the categories and stories of remembered articles by id: a wire copy takes its original's
    const originals = new UrlIndex<OriginalInfo & { seenAt: number }>(opts.windowMs ?? DEFAULT_WINDOW_MS);
    // the story actor's behaviour, driven directly; its clusterer keeps its window by the articles' time
    const stories = storyClusterBehaviour({ store: { loadSince: () => [] }, clusterer: opts.activeWindowMs ? { windowMs: opts.activeWindowMs } : {} });
    const ctx: ActorContext = { ...localContext('0', () => 0), self: 'story-cluster/0', kind: 'story-cluster', schedule: () => {} };
    const state: StoryClusterState = await stories.init('0', ctx);
    const decider = new Decider({
      urls: { lookup: (hashes) => new Map(hashes.flatMap((h) => { const k = urls.get(h); return k ? [[h, k] as const] : []; })) },
      originals: { lookup: (ids) => new Map(ids.flatMap((id) => { const l = originals.get(id); return l ? [[id, l] as const] : []; })) },
      dedup: index,
      cluster: async (items: ClusterItem[]) => stories.receive(state, { type: 'add-batch', items }, ctx) as ClusterBatchReply,
    });
    return new ProcessPipeline(decider, index, urls, originals, opts.now ?? Date.now);
  }

  /** Processes numbered lines; returns one result per line, in the same order. */
  async processBatch(lines: readonly { line: number; text: string }[]): Promise<LineResult[]> {
    const results: (LineResult | null)[] = new Array(lines.length).fill(null);
    const raws: RawArticle[] = [];
    const at: number[] = [];
    lines.forEach(({ line, text }, i) => {
      try {
        raws.push(parseInputLine(text));
        at.push(i);
      } catch (err) {
        results[i] = { line, id: err instanceof InvalidInputError ? err.inputId : null, error: errorOf(err) };
      }
    });
    const prepared = prepareBatch(raws, this.now(), { keepIds: true });
    for (const r of prepared.rejected) {
      const i = at[r.index]!;
      results[i] = { line: lines[i]!.line, id: raws[r.index]!.id ?? null, error: { code: r.code, message: r.message } };
    }
    try {
      const d = await this.decider.decide(prepared);
      for (const r of d.rejected) {
        if (r.index < 0 || results[at[r.index]!]) continue;
        const i = at[r.index]!;
        results[i] = { line: lines[i]!.line, id: raws[r.index]!.id ?? null, error: { code: r.code, message: r.message } };
      }
      for (const o of d.outcomes) {
        const i = at[o.a.index]!;
        results[i] = {
          line: lines[i]!.line,
          output: {
            id: o.id, url: o.a.url, duplicate_of: o.duplicate_of, story_id: o.story_id, category: o.a.category,
            region: o.a.region,
            language: o.a.language, entities: o.a.entities, simhash: o.a.simhash,
          },
        };
      }
      // what a node stores, `process` remembers: the URLs are known from now on
      for (const [hash, k] of d.known) {
        const seenAt = Date.parse(k.published_at);
        this.urls.set(hash, { ...k, seenAt });
        const l = d.originals.get(k.id);
        if (l) this.originals.set(k.id, { ...l, seenAt });
      }
      this.decider.release(d);
      for (const o of d.outcomes) {
        const t = Date.parse(o.a.published_at);
        if (t > this.watermark) this.watermark = t;
      }
    } catch (err) {
      // a fault of this code, not of the input: the batch's lines say so, and the run goes on
      const e = { code: 'INTERNAL', message: describeError(err) };
      lines.forEach(({ line }, i) => {
        if (!results[i]) results[i] = { line, id: raws[at.indexOf(i)]?.id ?? null, error: e };
      });
    }
    if (this.watermark - this.lastExpire >= EXPIRE_EVERY_MS) {
      this.lastExpire = this.watermark;
      await this.index.expire(this.watermark);
      this.urls.expire(this.watermark);
      this.originals.expire(this.watermark);
    }
    return results.map((r, i) => r ?? { line: lines[i]!.line, id: null, error: { code: 'INTERNAL', message: 'no result' } });
  }
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
