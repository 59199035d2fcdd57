import { createEvent, createSibling, createTwin, kindByName, simKindOf, type SimEvent } from './events.js';
import { SECTIONS, WIRE_AGENCIES, type Section } from './lexicon.js';
import type { Rng } from './prng.js';

const HOUR = 3_600_000;
/** events older than this get no new coverage */
const ACTIVE_MS = 36 * HOUR;
/** wire stories older than this are no longer picked up by outlets */
const WIRE_FRESH_MS = 8 * HOUR;
const CATEGORY_WEIGHTS = [25, 12, 15, 12, 6, 8, 14, 8];
/** running events considered per pick: the most recent ones, so a pick costs O(1) at any scale */
const CANDIDATES = 60;

/** A wire agency's story; outlets syndicate it with edits. */
export interface WireStory {
  readonly id: string;
  readonly eventId: string;
  readonly agency: number;
  readonly category: Section;
  readonly createdAt: number;
  /** outlets that already ran a copy: an outlet runs each wire story once */
  readonly copiedBy: Set<string>;
}

/**
 * The world's news: which events exist, which wire stories cover them, and which event an outlet
 * writes about next. Pure bookkeeping over an injected random stream and explicit times, so a
 * seed plus a sequence of publications always yields the same world.
 */
export class Newsroom {
  readonly events = new Map<string, SimEvent>();
  readonly wires = new Map<string, WireStory>();
  /** running events per category, oldest first */
  private readonly active = new Map<Section, SimEvent[]>();
  private recentWires: WireStory[] = [];
  private eventSeq = 0;
  private wireSeq = 0;

  constructor(private readonly rng: Rng) {}

  /** A category for an item: mostly the publisher's section, sometimes anything. */
  categoryFor(section: Section | null): Section {
    if (section && this.rng.chance(0.7)) return section;
    return SECTIONS[this.rng.weighted(CATEGORY_WEIGHTS)] as Section;
  }

  /**
   * Opens a new event (and sometimes its twin elsewhere, sharing words but not facts). The
   * world seldom has two separate events of one kind at once in one city, about one company,
   * person, team, film or product (two earthquakes in Glasgow the same morning): a new event is
   * re-drawn (up to 40 times: with 54 cities and a breaking quake every 15 minutes, 8 draws often
   * all clashed) when it would clash with a running one of its kind, as readers tell
   * such events apart by exactly those names. Kinds with topics are the exception: two marches in
   * one city on one day are two events when they are about different things.
   */
  openEvent(at: number, opts: { category?: Section; kind?: string; breaking?: boolean } = {}): SimEvent {
    const id = `e${++this.eventSeq}`;
    let ev = createEvent(this.rng, id, at, opts);
    for (let tries = 0; tries < 40 && this.clashes(ev, at); tries++) ev = createEvent(this.rng, id, at, { ...opts, kind: ev.kind });
    this.add(ev);
    if (simKindOf(ev).twin && !opts.breaking && this.rng.chance(0.35)) {
      // kinds with topics get their second event in the same city half the time (two marches in one city on one day)
      const sibling = simKindOf(ev).topics !== undefined && this.rng.chance(0.5);
      const twinId = `e${++this.eventSeq}`;
      let twin = (sibling ? createSibling : createTwin)(this.rng, twinId, at, ev);
      // a twin is drawn like any new event: not where a running one of its kind already is
      for (let tries = 0; tries < 40 && this.clashes(twin, at); tries++) twin = (sibling ? createSibling : createTwin)(this.rng, twinId, at, ev);
      this.add(twin);
    }
    return ev;
  }

  private clashes(ev: SimEvent, at: number): boolean {
    const slots = identitySlots(ev.kind);
    for (const e of this.running(ev.category, at)) {
      if (e.kind !== ev.kind) continue;
      // a fuel-price march and a pension march in one city are told apart by what they are about
      if (e.slots.topic !== ev.slots.topic) continue;
      for (const k of slots) if (e.slots[k] === ev.slots[k]) return true;
    }
    return false;
  }

  private add(ev: SimEvent): void {
    this.events.set(ev.id, ev);
    const list = this.active.get(ev.category);
    if (list) list.push(ev);
    else this.active.set(ev.category, [ev]);
  }

  private running(category: Section, at: number): SimEvent[] {
    const list = this.active.get(category) ?? [];
    let stale = 0;
    while (stale < list.length && (list[stale] as SimEvent).createdAt < at - ACTIVE_MS) stale++;
    if (stale > 0) list.splice(0, stale);
    return list;
  }

  private prune(at: number): void {
    if (this.recentWires.length > 0 && (this.recentWires[0] as WireStory).createdAt < at - WIRE_FRESH_MS) {
      this.recentWires = this.recentWires.filter((w) => w.createdAt >= at - WIRE_FRESH_MS);
    }
  }

  /** An event of `category` to cover at `at`: a fresh one, or a running one weighted to recent and breaking. */
  eventFor(category: Section, at: number): SimEvent {
    const running = this.running(category, at);
    const candidates = running.slice(-CANDIDATES).filter((e) => e.createdAt <= at);
    // new events get rarer as more are running, so the event count saturates at high item rates
    if (candidates.length < 3 || this.rng.chance((0.25 * 40) / (40 + running.length))) return this.openEvent(at, { category });
    const weights = candidates.map((e) => Math.exp(-(at - e.createdAt) / (6 * HOUR)) * (e.breaking ? 8 : 1));
    return candidates[this.rng.weighted(weights)] as SimEvent;
  }

  /** Files a new wire story about `ev` from agency `agency`. */
  fileWire(ev: SimEvent, agency: number, at: number): WireStory {
    const w: WireStory = { id: `w${++this.wireSeq}`, eventId: ev.id, agency, category: ev.category, createdAt: at, copiedBy: new Set() };
    this.wires.set(w.id, w);
    this.recentWires.push(w);
    return w;
  }

  /** A fresh wire story of `category` that `outletId` has not run yet, if any. */
  wireToCopy(category: Section, outletId: string, at: number): WireStory | null {
    this.prune(at);
    const fresh = this.recentWires.filter((w) => w.category === category && w.createdAt <= at && !w.copiedBy.has(outletId));
    if (fresh.length === 0) return null;
    const weights = fresh.map((w) => Math.exp(-(at - w.createdAt) / (2 * HOUR)) * (this.events.get(w.eventId)?.breaking ? 8 : 1));
    return fresh[this.rng.weighted(weights)] as WireStory;
  }

  /** A wire story about `ev` that `outletId` has not run yet, if any. */
  wireAbout(ev: SimEvent, outletId: string): WireStory | null {
    for (const w of this.recentWires) if (w.eventId === ev.id && !w.copiedBy.has(outletId)) return w;
    return null;
  }

  agencyFor(w: WireStory): (typeof WIRE_AGENCIES)[number] {
    return WIRE_AGENCIES[w.agency % WIRE_AGENCIES.length] as (typeof WIRE_AGENCIES)[number];
  }

  /** Events still drawing coverage at `at`. */
  activeEvents(at: number): SimEvent[] {
    return SECTIONS.flatMap((c) => this.running(c, at).slice());
  }
}

/** names that tell events of a kind apart: the slots its headlines and leads use */
const IDENTITY = ['city', 'country', 'org', 'org2', 'person', 'team', 'team2', 'work', 'product', 'condition'];
const identityCache = new Map<string, string[]>();

function identitySlots(kind: string): string[] {
  let slots = identityCache.get(kind);
  if (!slots) {
    const k = kindByName(kind);
    const used = new Set([...k.headlines, ...k.leads].flatMap((t) => [...t.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)));
    // a country holds many cities: only kinds written about a country (elections, rates) clash on it
    slots = IDENTITY.filter((s) => used.has(s) && (s !== 'country' || !used.has('city')));
    identityCache.set(kind, slots);
  }
  return slots;
}
