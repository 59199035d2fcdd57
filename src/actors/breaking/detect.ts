/**
 * Breaking-news detection as pure bookkeeping over an injected clock: every call takes `now`.
 *
 * Articles are counted in one-minute buckets per key: the story (`s:<id>`), each salient entity
 * (`e:<name>`: people, organisations, named places) and each place (`p:<ISO code>`), plus all
 * articles together (`*`). A key spikes when the distinct publishers that carried it in the last
 * `windowMs` number
 *
 *   - at least `ratio` times its baseline, and
 *   - at least `minPublishers`,
 *
 * where the baseline is the key's own article rate over the hour before the window (the
 * "rolling baseline for that hour"), but never less than a floor: `minBaseline` articles per
 * window, or `baselineShare` of all articles per window over that hour. A brand-new story has no
 * rate of its own, so the floor is what it must beat; as a share of the whole flow, it grows with
 * the number of publishers a node follows. Publishers rather than articles are counted in the
 * window because breadth is what sets breaking news apart: on a simulated day (300 publishers)
 * a city's or a country's busy hour reached 2.9 times its baseline in articles, but only 2.5 in
 * publishers, against 10 and more for a staged breaking event.
 *
 * An article counts at its event time: its publication time, or its arrival when it claims a
 * time in the future. Articles older than the window plus the baseline are ignored.
 */

export interface DetectorConfig {
  /** the window a spike is counted in (default 10 min) */
  windowMs: number;
  /** the rolling baseline before the window (default 60 min) */
  baselineMs: number;
  /** bucket width (default 1 min) */
  bucketMs: number;
  /** a spike is at least this many times the baseline (default 3) */
  ratio: number;
  /** distinct publishers a spike needs within the window */
  minPublishers: number;
  /** the baseline floor in articles per window */
  minBaseline: number;
  /** the baseline floor as a share of all articles per window */
  baselineShare: number;
  /** articles remembered (for duplicates and publishers); the oldest go first beyond this */
  maxArticles: number;
  /**
   * a story is *rising* when its own publishers in the window reach this share of what a spike
   * needs (default 0.5): its likely publishers are polled faster before it breaks (1 = only then)
   */
  earlyShare?: number;
}

export const DEFAULT_DETECTOR: DetectorConfig = {
  windowMs: 10 * 60_000,
  baselineMs: 60 * 60_000,
  bucketMs: 60_000,
  ratio: 3,
  minPublishers: 8,
  minBaseline: 8,
  baselineShare: 0.025,
  maxArticles: 200_000,
  earlyShare: 0.5,
};

/** One stored article as the detector sees it. */
export interface Observation {
  id: string;
  story: string;
  publisher: string;
  /** event time, ms */
  at: number;
  /** salient keys besides the story: `e:<entity>`, `p:<place>` (see `keysOf`) */
  keys: readonly string[];
}

/** A key whose window count is well above its baseline, and the story it marks. */
export interface Spike {
  story: string;
  /** `s:<story>`, `e:<entity>` or `p:<place>` */
  key: string;
  articles: number;
  publishers: number;
  /** the baseline the count was compared with (articles per window) */
  baseline: number;
}

export const GLOBAL_KEY = '*';
export const storyKeyOf = (story: string): string => `s:${story}`;

/** The salient keys of an article: named people, organisations and places, and its places (first few of each). */
export function keysOf(entities: readonly { name: string; type: string }[], places: readonly string[], max = 4): string[] {
  const out: string[] = [];
  for (const e of entities) {
    if (out.length >= max) break;
    if (e.type !== 'person' && e.type !== 'org' && e.type !== 'place') continue;
    const k = `e:${e.name.toLowerCase()}`;
    if (!out.includes(k)) out.push(k);
  }
  for (const p of places.slice(0, 2)) {
    const k = `p:${p}`;
    if (!out.includes(k)) out.push(k);
  }
  return out;
}

interface Entry {
  bucket: number;
  publisher: string;
  story: string;
}

interface KeyState {
  /** bucket -> articles */
  counts: Map<number, number>;
  /** articles of the window (and a little before it, pruned on evaluation); empty for `*` */
  recent: Entry[];
  /** newest bucket seen: a key quiet for the whole horizon is dropped */
  last: number;
}

/** The decision for one key: its window's publishers against `ratio` times its floored baseline. */
export function isSpike(s: { publishers: number; own: number; global: number }, cfg: DetectorConfig): { spike: boolean; baseline: number } {
  const baseline = Math.max(s.own, cfg.minBaseline, cfg.baselineShare * s.global);
  return { spike: s.publishers >= cfg.minPublishers && s.publishers >= cfg.ratio * baseline, baseline };
}

/**
 * Whether a story key is rising: halfway (`earlyShare`) to a spike by both of a spike's tests,
 * not yet a spike.
 */
export function isRising(s: { publishers: number; own: number; global: number }, cfg: DetectorConfig): boolean {
  const share = cfg.earlyShare ?? 1;
  if (share >= 1) return false;
  const baseline = Math.max(s.own, cfg.minBaseline, cfg.baselineShare * s.global);
  return s.publishers >= Math.max(2, share * cfg.minPublishers) && s.publishers >= share * cfg.ratio * baseline && !isSpike(s, cfg).spike;
}

/**
 * Sliding-window counts per key. `observe` articles as they are stored, `evaluate(now)` returns
 * the spikes among keys that received articles since the last evaluation.
 */
export class SpikeDetector {
  private readonly keys = new Map<string, KeyState>();
  /** article id -> event time, in arrival order (duplicates are counted once) */
  private readonly seen = new Map<string, number>();
  private dirty = new Set<string>();
  private readonly windowBuckets: number;
  private readonly baselineBuckets: number;

  constructor(readonly cfg: DetectorConfig = DEFAULT_DETECTOR) {
    this.windowBuckets = Math.max(1, Math.round(cfg.windowMs / cfg.bucketMs));
    this.baselineBuckets = Math.max(1, Math.round(cfg.baselineMs / cfg.bucketMs));
  }

  /** Articles tracked now. */
  get size(): number {
    return this.seen.size;
  }

  /** Keys tracked now (the story keys included). */
  get keyCount(): number {
    return this.keys.size;
  }

  /** Counts one article; false when it was seen before or is too old to matter. */
  observe(o: Observation, now: number): boolean {
    if (this.seen.has(o.id)) return false;
    const at = Math.min(o.at, now);
    const bucket = Math.floor(at / this.cfg.bucketMs);
    const current = Math.floor(now / this.cfg.bucketMs);
    if (!Number.isFinite(at) || bucket <= current - this.windowBuckets - this.baselineBuckets) return false;
    this.seen.set(o.id, at);
    if (this.seen.size > this.cfg.maxArticles) this.seen.delete(this.seen.keys().next().value as string);
    this.count(GLOBAL_KEY, bucket, null);
    const entry: Entry = { bucket, publisher: o.publisher, story: o.story };
    this.count(storyKeyOf(o.story), bucket, entry);
    for (const k of o.keys) this.count(k, bucket, entry);
    return true;
  }

  private count(key: string, bucket: number, entry: Entry | null): void {
    let s = this.keys.get(key);
    if (!s) this.keys.set(key, (s = { counts: new Map(), recent: [], last: bucket }));
    s.counts.set(bucket, (s.counts.get(bucket) ?? 0) + 1);
    if (bucket > s.last) s.last = bucket;
    if (entry) {
      s.recent.push(entry);
      this.dirty.add(key);
    }
  }

  /** Window figures of one key at `now` (zeros for an unknown key). */
  stats(key: string, now: number): { articles: number; publishers: number; own: number; global: number; story: string | null } {
    const current = Math.floor(now / this.cfg.bucketMs);
    const from = current - this.windowBuckets; // window: (from, current]
    const s = this.keys.get(key);
    const g = this.keys.get(GLOBAL_KEY);
    const global = g ? this.baselineOf(g, from) : 0;
    if (!s) return { articles: 0, publishers: 0, own: 0, global, story: null };
    s.recent = s.recent.filter((e) => e.bucket > from);
    const publishers = new Set<string>();
    const stories = new Map<string, number>();
    let articles = 0;
    for (const e of s.recent) {
      if (e.bucket > current) continue;
      articles++;
      publishers.add(e.publisher);
      stories.set(e.story, (stories.get(e.story) ?? 0) + 1);
    }
    let story: string | null = null;
    let best = 0;
    for (const [id, n] of stories) if (n > best) (story = id), (best = n);
    return { articles, publishers: publishers.size, own: this.baselineOf(s, from), global, story };
  }

  /** Articles per window over the baseline period that ends where the window begins. */
  private baselineOf(s: KeyState, windowStart: number): number {
    let n = 0;
    for (const [b, c] of s.counts) if (b <= windowStart && b > windowStart - this.baselineBuckets) n += c;
    return (n * this.windowBuckets) / this.baselineBuckets;
  }

  /** Spikes among the keys that got articles since the last call, strongest per story first. */
  evaluate(now: number): Spike[] {
    return this.evaluateAll(now).spikes;
  }

  /** Spikes (as `evaluate`), and the stories rising towards one (their own key halfway there, see `isRising`). */
  evaluateAll(now: number): { spikes: Spike[]; rising: string[] } {
    const dirty = this.dirty;
    this.dirty = new Set();
    const byStory = new Map<string, Spike>();
    const rising: string[] = [];
    for (const key of dirty) {
      const st = this.stats(key, now);
      if (st.story === null) continue;
      const d = isSpike(st, this.cfg);
      if (!d.spike) {
        if (key.startsWith('s:') && isRising(st, this.cfg)) rising.push(key.slice(2));
        continue;
      }
      const story = key.startsWith('s:') ? key.slice(2) : st.story;
      const spike: Spike = { story, key, articles: st.articles, publishers: st.publishers, baseline: Math.round(d.baseline * 100) / 100 };
      const prev = byStory.get(story);
      if (!prev || spike.publishers / spike.baseline > prev.publishers / prev.baseline) byStory.set(story, spike);
    }
    return {
      spikes: [...byStory.values()].sort((a, b) => b.publishers / b.baseline - a.publishers / a.baseline),
      rising: rising.filter((id) => !byStory.has(id)).sort(),
    };
  }

  /** Drops buckets, keys and articles older than the window plus the baseline. */
  prune(now: number): void {
    const oldest = Math.floor(now / this.cfg.bucketMs) - this.windowBuckets - this.baselineBuckets;
    for (const [key, s] of this.keys) {
      if (s.last <= oldest) {
        this.keys.delete(key);
        this.dirty.delete(key);
        continue;
      }
      for (const b of s.counts.keys()) if (b <= oldest) s.counts.delete(b);
      if (s.recent.length > 0 && s.recent[0]!.bucket <= oldest) s.recent = s.recent.filter((e) => e.bucket > oldest);
    }
    const cutoff = (oldest + 1) * this.cfg.bucketMs;
    for (const [id, at] of this.seen) {
      if (at >= cutoff) continue;
      this.seen.delete(id);
    }
  }
}
