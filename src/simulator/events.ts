import {
  CITIES, CONDITIONS, FIRST_NAMES, LAST_NAMES, ORG_ROOTS, ORG_SUFFIXES, PRODUCTS, TEAM_MASCOTS, WORKS,
  type City, type Section,
} from './lexicon.js';
import { Rng } from './prng.js';
import { EVENT_KINDS, kindsFor, type EventKind } from './templates.js';

/** One real-world happening the simulated press writes about. Ground truth for clustering. */
export interface SimEvent {
  readonly id: string;
  readonly kind: string;
  readonly category: Section;
  readonly createdAt: number;
  readonly place: City;
  /** slot values: the people, organisations and numbers all coverage of this event shares */
  readonly slots: Readonly<Record<string, string>>;
  /** names of people, organisations and places, for entity-based scoring */
  readonly entities: { people: string[]; orgs: string[]; places: string[] };
  /** the event this one shares words with (same kind elsewhere), if any */
  readonly twinOf: string | null;
  readonly breaking: boolean;
}

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

function person(rng: Rng): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
}

function org(rng: Rng, category: Section): string {
  const suffixes = ORG_SUFFIXES[category] ?? ORG_SUFFIXES.business ?? ['Group'];
  return `${rng.pick(ORG_ROOTS)} ${rng.pick(suffixes)}`;
}

export function kindByName(name: string): EventKind {
  const k = EVENT_KINDS.find((e) => e.kind === name);
  if (!k) throw new RangeError(`unknown event kind: ${name}`);
  return k;
}

/** Invents an event of `kind` (or a random kind of `category`) at `at`. */
export function createEvent(
  rng: Rng,
  id: string,
  at: number,
  opts: { category?: Section; kind?: string; place?: City; topic?: string; twinOf?: string | null; breaking?: boolean } = {},
): SimEvent {
  const kind = opts.kind ? kindByName(opts.kind) : rng.pick(kindsFor(opts.category ?? 'world'));
  const place = opts.place ?? rng.pick(CITIES);
  const p1 = person(rng);
  let p2 = person(rng);
  while (p2 === p1) p2 = person(rng);
  const o1 = org(rng, kind.category);
  let o2 = org(rng, kind.category === 'politics' ? 'business' : kind.category);
  while (o2 === o1) o2 = org(rng, 'business');
  const t1 = `${rng.pick(CITIES).city} ${rng.pick(TEAM_MASCOTS)}`;
  let t2 = `${rng.pick(CITIES).city} ${rng.pick(TEAM_MASCOTS)}`;
  while (t2 === t1) t2 = `${rng.pick(CITIES).city} ${rng.pick(TEAM_MASCOTS)}`;
  const n = rng.range(3, 60);
  const slots: Record<string, string> = {
    person: p1, person2: p2, last: p1.split(' ')[1] ?? p1, last2: p2.split(' ')[1] ?? p2,
    role: rng.pick(kind.roles), org: o1, org2: o2, city: place.city, country: place.countryName,
    n: String(n), n2: String(n * rng.range(3, 40)), pct: String(rng.range(2, 19) + rng.range(0, 9) / 10),
    money: `$${rng.range(2, 95)}${rng.pick([' million', '0 million', ' billion'])}`,
    team: t1, team2: t2, score: `${rng.range(1, 4)}-${rng.range(0, 2)}`,
    work: rng.pick(WORKS), product: rng.pick(PRODUCTS), condition: rng.pick(CONDITIONS),
    mag: `${rng.range(5, 7)}.${rng.range(0, 9)}`,
    day: rng.pick(WEEKDAYS),
  };
  // what the event is about, for kinds one city can have twice at once (drawn last, so a
  // sibling can take another topic and keep every other draw)
  if (kind.topics) slots.topic = opts.topic ?? rng.pick(kind.topics);
  const usesTeams = kind.category === 'sports';
  return {
    id, kind: kind.kind, category: kind.category, createdAt: at, place, slots,
    entities: {
      people: [p1, p2],
      orgs: usesTeams ? [t1, t2] : [o1, o2],
      places: [place.city, place.countryName.replace(/^the /, '')],
    },
    twinOf: opts.twinOf ?? null,
    breaking: opts.breaking ?? false,
  };
}

/** The same kind of event somewhere else with other people: shares headline words, not facts. */
export function createTwin(rng: Rng, id: string, at: number, of: SimEvent): SimEvent {
  let place = rng.pick(CITIES);
  while (place.city === of.place.city) place = rng.pick(CITIES);
  return createEvent(rng, id, at, { kind: of.kind, place, twinOf: of.id });
}

/**
 * Another event of the same kind in the same city at the same time, about something else (a
 * pension march beside a fuel-price march): shares the place and most words, not the facts.
 * Only for kinds with topics; others get a twin elsewhere.
 */
export function createSibling(rng: Rng, id: string, at: number, of: SimEvent): SimEvent {
  const topics = simKindOf(of).topics;
  if (!topics || topics.length < 2) return createTwin(rng, id, at, of);
  let topic = rng.pick(topics);
  while (topic === of.slots.topic) topic = rng.pick(topics);
  return createEvent(rng, id, at, { kind: of.kind, place: of.place, topic, twinOf: of.id });
}

/** Fills `{slot}` placeholders; unknown slots stay visible so template typos show up in tests. */
export function fill(pattern: string, slots: Readonly<Record<string, string>>): string {
  const out = pattern.replace(/\{(\w+)\}/g, (m, name: string) => slots[name] ?? m);
  // roles open some sentences ("{role} {person} said"): a sentence starts with a capital
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/** `kindByName(ev.kind)`, kept short for writers. */
export function simKindOf(ev: SimEvent): EventKind {
  return kindByName(ev.kind);
}
