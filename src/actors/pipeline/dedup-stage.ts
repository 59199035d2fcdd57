import { DEFAULT_WINDOW_MS } from '../dedup/dedup-shard.js';
import { DedupIndex, type DedupIndexOptions } from '../dedup/dedup-index.js';
import { UrlIndex } from '../dedup/url-index.js';
import type { PipelineItem, Stage } from './types.js';

/** Expire old fingerprints whenever event time has moved on by this much. */
const EXPIRE_EVERY_MS = 3600_000;

/**
 * Exact dedup by url_hash, then near-duplicate dedup through the 4-table SimHash index. A URL
 * seen before makes the article an update of the stored one: it keeps that article's id and
 * dedup decision and is not inserted again. Time is event time (`published_at`), so an offline
 * run over old data expires entries just as the live system would.
 */
export class DedupStage implements Stage {
  readonly name = 'dedup';
  private watermark = -Infinity;
  private lastExpire = -Infinity;

  private constructor(
    private readonly index: DedupIndex,
    private readonly urls: UrlIndex,
  ) {}

  static async create(opts: DedupIndexOptions = {}): Promise<DedupStage> {
    const index = await DedupIndex.create(opts);
    return new DedupStage(index, new UrlIndex(opts.windowMs ?? DEFAULT_WINDOW_MS));
  }

  async run(items: PipelineItem[]): Promise<void> {
    const fresh: PipelineItem[] = [];
    const firstInBatch = new Map<string, PipelineItem>();
    const repeats: PipelineItem[] = [];
    for (const it of items) {
      if (this.urls.get(it.urlHash) || firstInBatch.has(it.urlHash)) {
        it.update = true;
        repeats.push(it);
      } else {
        firstInBatch.set(it.urlHash, it);
        fresh.push(it);
      }
    }
    const decisions = await this.index.submit(fresh.map((it) => ({ id: it.out.id, fp: it.fp, publishedAt: it.publishedAt })));
    fresh.forEach((it, k) => {
      it.out.duplicate_of = decisions[k]!.duplicateOf;
      this.urls.set(it.urlHash, { id: it.out.id, duplicateOf: it.out.duplicate_of, simhash: it.out.simhash, seenAt: it.publishedAt });
    });
    for (const it of repeats) {
      const first = this.urls.get(it.urlHash)!;
      it.out.id = first.id;
      it.out.duplicate_of = first.duplicateOf;
    }
    for (const it of items) if (it.publishedAt > this.watermark) this.watermark = it.publishedAt;
    if (this.watermark - this.lastExpire >= EXPIRE_EVERY_MS) {
      this.lastExpire = this.watermark;
      await this.index.expire(this.watermark);
      this.urls.expire(this.watermark);
    }
  }
}
