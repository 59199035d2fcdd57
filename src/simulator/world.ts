import type { PublisherSpec } from './catalogue.js';
import { SimulatorLookupError } from './errors.js';
import type { SimEvent } from './events.js';
import type { Section } from './lexicon.js';
import { Newsroom, type WireStory } from './newsroom.js';
import { hashString, Rng } from './prng.js';
import { headlineStyleOf, originalTitle, syndicate, writeOriginal, writeWire, type Edits, type Story } from './writer.js';

const HOUR = 3_600_000;

/** One published item. Its text is re-written on demand from this recipe (see `storyOf`). */
export interface SimItem {
  readonly guid: string;
  readonly seq: number;
  readonly publisherId: string;
  readonly eventId: string;
  readonly wireId: string | null;
  readonly role: 'wire' | 'copy' | 'original';
  readonly publishedAt: number;
  readonly category: Section;
  readonly title: string;
  readonly slug: string;
  readonly thumbnail: boolean;
  readonly edits: Edits | null;
}

/** Mutable per-publisher state: latest items first, and a version bumped on every change. */
export interface SimPublisherState {
  readonly spec: PublisherSpec;
  /** content draws (copy or not, thumbnail) */
  readonly rng: Rng;
  /** schedule draws only, so where a tick is split never changes what gets written */
  readonly schedule: Rng;
  items: SimItem[];
  seq: number;
  version: number;
  lastModified: number;
  nextAt: number;
}

export interface WorldOptions {
  seed: string | number;
  now: () => number;
  /** simulated history generated before the start, so feeds are not empty (default 12 h) */
  backfillMs?: number;
  /** multiplies every publisher's rate (default 1) */
  rateScale?: number;
  /** keep every item for `allItems()` (default true; off for huge catalogues) */
  keepTruth?: boolean;
  /** items kept per publisher (feeds show the newest 20; pages of older ones answer 404) */
  keep?: number;
  onChanged?: (changed: SimPublisherState[]) => void;
}

interface Due {
  at: number;
  pub: SimPublisherState;
  event?: SimEvent;
}

function slugify(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').split('-').slice(0, 9).join('-') || 'story';
}

/**
 * The simulated world over time: publishers publish at their own Poisson rates on a clock that
 * only moves by `now()` plus `advance(ms)`, so a benchmark can run a simulated day in seconds and
 * a test gets the same items for the same seed and calls.
 */
export class World {
  readonly newsroom: Newsroom;
  readonly publishers: SimPublisherState[];
  private readonly byId = new Map<string, SimPublisherState>();
  private readonly rng: Rng;
  private readonly keep: number;
  private readonly seedTag: string;
  private offset = 0;
  private pending: Due[] = [];
  private minNext = -Infinity;
  private readonly truthLog: SimItem[] = [];
  /** wire story id -> guid of the agency item that published it */
  readonly wireOriginals = new Map<string, string>();
  published = 0;

  constructor(specs: PublisherSpec[], private readonly opts: WorldOptions) {
    this.rng = Rng.fork(opts.seed, 'world');
    this.newsroom = new Newsroom(Rng.fork(opts.seed, 'newsroom'));
    this.keep = opts.keep ?? 30;
    this.seedTag = hashString(String(opts.seed)).toString(36);
    const start = opts.now();
    const backfill = opts.backfillMs ?? 12 * HOUR;
    this.publishers = specs.map((spec) => {
      const rng = Rng.fork(opts.seed, 'publisher', spec.id);
      const rate = this.rateOf(spec);
      // the first item falls somewhere in the backfill window, so every feed starts non-empty
      const schedule = Rng.fork(opts.seed, 'schedule', spec.id);
      const first = Math.floor(start - backfill + schedule.next() * Math.min(backfill, rate > 0 ? HOUR / rate : backfill));
      const st: SimPublisherState = { spec, rng, schedule, items: [], seq: 0, version: 0, lastModified: start - backfill, nextAt: first };
      this.byId.set(spec.id, st);
      return st;
    });
    this.advance();
  }

  /** items per simulated hour */
  rateOf(spec: PublisherSpec): number {
    return (spec.kind === 'wire' ? 10 : spec.itemsPerHour) * (this.opts.rateScale ?? 1);
  }

  /** Simulated now. */
  now(): number {
    return this.opts.now() + this.offset;
  }

  publisher(id: string): SimPublisherState {
    const p = this.byId.get(id);
    if (!p) throw new SimulatorLookupError('publisher', id);
    return p;
  }

  /** Moves simulated time forward by `ms` and publishes what falls due. */
  tick(ms: number): SimItem[] {
    this.offset += Math.max(0, ms);
    return this.advance();
  }

  /** Publishes everything due up to now, in time order across publishers (cheap when nothing is). */
  advance(): SimItem[] {
    const t = this.now();
    if (t < this.minNext) return [];
    const due: Due[] = [];
    for (const pub of this.publishers) {
      const rate = this.rateOf(pub.spec);
      if (rate <= 0) continue;
      while (pub.nextAt <= t) {
        due.push({ at: pub.nextAt, pub });
        pub.nextAt += Math.max(1, Math.round(pub.schedule.exp(HOUR / rate)));
      }
    }
    const keepPending: Due[] = [];
    for (const d of this.pending) (d.at <= t ? due : keepPending).push(d);
    this.pending = keepPending;
    due.sort((a, b) => a.at - b.at || a.pub.spec.index - b.pub.spec.index);
    const out = this.publishDue(due);
    this.recomputeMinNext();
    return out;
  }

  private recomputeMinNext(): void {
    let m = Infinity;
    for (const p of this.publishers) if (this.rateOf(p.spec) > 0 && p.nextAt < m) m = p.nextAt;
    for (const d of this.pending) if (d.at < m) m = d.at;
    this.minNext = m;
  }

  private publishDue(due: Due[]): SimItem[] {
    const out: SimItem[] = [];
    const changed = new Set<SimPublisherState>();
    for (const d of due) {
      out.push(this.publishOne(d.pub, d.at, d.event));
      changed.add(d.pub);
    }
    if (changed.size > 0) this.opts.onChanged?.([...changed]);
    return out;
  }

  /** Forces `n` new items now: from `publisherId`, or from outlets drawn by their activity. */
  publish(n: number, publisherId?: string): SimItem[] {
    const t = this.now();
    const outlets = this.publishers.filter((p) => p.spec.kind === 'outlet');
    const pool = outlets.length > 0 ? outlets : this.publishers;
    const weights = publisherId ? [] : pool.map((p) => this.rateOf(p.spec) + 0.05);
    const due: Due[] = [];
    for (let i = 0; i < n; i++) {
      const pub = publisherId ? this.publisher(publisherId) : (pool[this.rng.weighted(weights)] as SimPublisherState);
      due.push({ at: t, pub });
    }
    return this.publishDue(due);
  }

  /** A breaking-news burst: `count` outlets cover one event within `withinMs` from now. */
  burst(opts: { event?: string; publishers: number | string[]; withinMs: number; kind?: string }): { event: SimEvent; schedule: { publisher_id: string; at: number }[] } {
    const t = this.now();
    const event = opts.event
      ? this.newsroom.events.get(opts.event) ?? (() => { throw new SimulatorLookupError('event', opts.event as string); })()
      : this.newsroom.openEvent(t, { category: 'world', kind: opts.kind ?? 'earthquake', breaking: true });
    const wire = this.publishers.find((p) => p.spec.kind === 'wire');
    if (wire) this.pending.push({ at: t, pub: wire, event });
    let chosen: SimPublisherState[];
    if (Array.isArray(opts.publishers)) chosen = opts.publishers.map((id) => this.publisher(id));
    else {
      const outlets = this.publishers.filter((p) => p.spec.kind === 'outlet');
      const honest = this.rng.sample(outlets.filter((p) => p.spec.behaviour === 'ok'), opts.publishers);
      const rest = this.rng.sample(outlets.filter((p) => p.spec.behaviour !== 'ok'), opts.publishers - honest.length);
      chosen = [...honest, ...rest];
    }
    const schedule = chosen.map((pub) => {
      const at = t + 1 + Math.floor(this.rng.next() * Math.max(0, opts.withinMs - 1));
      this.pending.push({ at: opts.withinMs <= 0 ? t : at, pub, event });
      return { publisher_id: pub.spec.id, at: opts.withinMs <= 0 ? t : at };
    });
    this.minNext = Math.min(this.minNext, t);
    this.advance();
    return { event, schedule };
  }

  private publishOne(pub: SimPublisherState, at: number, forced?: SimEvent): SimItem {
    const spec = pub.spec;
    const nr = this.newsroom;
    let event: SimEvent;
    let wire: WireStory | null = null;
    let role: SimItem['role'];
    if (spec.kind === 'wire') {
      event = forced ?? nr.eventFor(nr.categoryFor(null), at);
      wire = nr.fileWire(event, spec.index, at);
      role = 'wire';
    } else {
      const category = forced?.category ?? nr.categoryFor(spec.section);
      const copyWanted = pub.rng.chance(forced ? 0.5 : 0.45);
      if (forced) {
        event = forced;
        if (copyWanted) wire = nr.wireAbout(forced, spec.id) ?? (this.hasWirePublisher() ? null : nr.fileWire(forced, 0, at));
      } else if (copyWanted) {
        wire = nr.wireToCopy(category, spec.id, at);
        if (!wire && !this.hasWirePublisher()) wire = nr.fileWire(nr.eventFor(category, at), pub.rng.int(3), at);
        event = wire ? (nr.events.get(wire.eventId) as SimEvent) : nr.eventFor(category, at);
      } else {
        event = nr.eventFor(category, at);
      }
      role = wire ? 'copy' : 'original';
      wire?.copiedBy.add(spec.id);
    }
    const seq = ++pub.seq;
    const guid = `sim-${this.seedTag}-${spec.id}-${seq}`;
    const base: Omit<SimItem, 'title' | 'slug' | 'edits'> = {
      guid, seq, publisherId: spec.id, eventId: event.id, wireId: wire?.id ?? null, role, publishedAt: at,
      category: event.category, thumbnail: pub.rng.chance(spec.thumbnailShare),
    };
    // own articles need only their headline now; copies need the full text to know their edits
    const { title, edits } = role === 'original'
      ? { title: originalTitle(event, guid, headlineStyleOf(spec.id)), edits: null }
      : (({ story, edits: e }) => ({ title: story.title, edits: e }))(this.write(base, spec));
    const item: SimItem = { ...base, title, slug: slugify(title), edits };
    pub.items.unshift(item);
    if (pub.items.length > this.keep) pub.items.length = this.keep;
    pub.version++;
    pub.lastModified = Math.max(pub.lastModified, at);
    if (this.opts.keepTruth !== false) this.truthLog.push(item);
    if (role === 'wire' && wire) this.wireOriginals.set(wire.id, guid);
    this.published++;
    return item;
  }

  private hasWirePublisher(): boolean {
    return this.publishers.some((p) => p.spec.kind === 'wire');
  }

  private write(item: Pick<SimItem, 'guid' | 'eventId' | 'wireId' | 'role'>, spec: PublisherSpec): { story: Story; edits: Edits | null } {
    const ev = this.newsroom.events.get(item.eventId) as SimEvent;
    if (item.role === 'original') return { story: writeOriginal(ev, item.guid, headlineStyleOf(spec.id)), edits: null };
    const w = this.newsroom.wires.get(item.wireId as string) as WireStory;
    const original = this.wireText(w, ev);
    if (item.role === 'wire') return { story: original, edits: null };
    return syndicate(original, spec.name, item.guid);
  }

  /** Wire texts are re-used by every copy: keep the recent ones (a small, bounded cache). */
  private readonly wireCache = new Map<string, Story>();

  private wireText(w: WireStory, ev: SimEvent): Story {
    let story = this.wireCache.get(w.id);
    if (!story) {
      story = writeWire(ev, this.newsroom.agencyFor(w), w.id);
      this.wireCache.set(w.id, story);
      if (this.wireCache.size > 2000) this.wireCache.delete(this.wireCache.keys().next().value as string);
    }
    return story;
  }

  /** The article text of an item (re-written deterministically from its recipe). */
  storyOf(item: SimItem): Story {
    return this.write(item, this.publisher(item.publisherId).spec).story;
  }

  event(id: string): SimEvent | undefined {
    return this.newsroom.events.get(id);
  }

  /** Every item ever published, oldest first (empty when `keepTruth` is off). */
  allItems(): readonly SimItem[] {
    return this.truthLog;
  }
}
