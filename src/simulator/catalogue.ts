import { SimulatorConfigError } from './errors.js';
import { CITIES, OUTLET_PATTERNS, SECTIONS, SPECIALIST_PATTERNS, WIRE_AGENCIES, type City, type Section } from './lexicon.js';
import { Rng } from './prng.js';

export type SimFeedFormat = 'rss' | 'atom' | 'jsonfeed' | 'sitemap';

/** How a publisher's feed endpoint behaves. `ok` is an honest publisher. */
export const MISBEHAVIOURS = [
  'slow', 'error500', 'rateLimited', 'malformed', 'huge', 'redirectLoop', 'robotsDisallow',
] as const;
export type Misbehaviour = (typeof MISBEHAVIOURS)[number];
export type SimBehaviour = 'ok' | Misbehaviour;

/** Per mode: a count (>= 1) or a fraction of all publishers (< 1). */
export type MisbehaviourMix = Partial<Record<Misbehaviour, number>>;

/** Everything fixed about one simulated publisher except its base URL. */
export interface PublisherSpec {
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly kind: 'outlet' | 'wire';
  readonly city: City;
  readonly section: Section;
  readonly format: SimFeedFormat;
  behaviour: SimBehaviour;
  /** mean new items per simulated hour */
  readonly itemsPerHour: number;
  /** serves `content:encoded` / `content_html` with the body */
  readonly fullContent: boolean;
  /** RSS `<ttl>` minutes, on some RSS feeds */
  readonly ttlMinutes: number | null;
  /** `Cache-Control: max-age`, on some feeds */
  readonly maxAgeSeconds: number | null;
  /** share of items that carry a thumbnail */
  readonly thumbnailShare: number;
}

const COUNTRY_WEIGHT: Record<string, number> = { US: 6, GB: 4, IN: 3, CA: 2, AU: 2, DE: 2, FR: 2 };
const SECTION_WEIGHTS: Record<Section, number> = {
  world: 25, politics: 12, business: 15, technology: 12, science: 6, health: 8, sports: 14, entertainment: 8,
};
const FORMATS: readonly SimFeedFormat[] = ['rss', 'atom', 'jsonfeed', 'sitemap'];
const FORMAT_WEIGHTS = [55, 20, 10, 15];

/** A realistic mix: a few very active publishers, most quiet (so most conditional polls get 304). */
function itemsPerHour(rng: Rng): number {
  const r = rng.next();
  if (r < 0.05) return 8 + rng.next() * 22;
  if (r < 0.25) return 1 + rng.next() * 3;
  return 0.05 + rng.next() * 0.55;
}

function uniqueName(rng: Rng, city: City, section: Section, taken: Set<string>): string {
  for (let attempt = 0; attempt < 20; attempt++) {
    const special = section !== 'world' && rng.chance(0.4);
    const patterns = special ? (SPECIALIST_PATTERNS[section] ?? OUTLET_PATTERNS) : OUTLET_PATTERNS;
    const name = rng.pick(patterns).replace('{city}', city.city);
    if (!taken.has(name)) return name;
  }
  let n = 2;
  const base = rng.pick(OUTLET_PATTERNS).replace('{city}', city.city);
  while (taken.has(`${base} ${n}`)) n++;
  return `${base} ${n}`;
}

/** How many wire agencies a catalogue of `n` publishers gets unless told. */
export function defaultWireCount(n: number): number {
  return n >= 10 ? Math.min(WIRE_AGENCIES.length, Math.max(1, Math.round(n / 150))) : 0;
}

/** Builds the deterministic publisher catalogue for a seed. */
export function buildCatalogue(opts: { publishers: number; seed: string | number; wires?: number; misbehaving?: MisbehaviourMix }): PublisherSpec[] {
  const n = opts.publishers;
  if (!Number.isInteger(n) || n < 1) throw new SimulatorConfigError(`publishers must be a positive integer, got ${n}`);
  const wires = opts.wires ?? defaultWireCount(n);
  if (wires > WIRE_AGENCIES.length || wires > n) throw new SimulatorConfigError(`at most ${Math.min(n, WIRE_AGENCIES.length)} wire agencies`);
  const rng = Rng.fork(opts.seed, 'catalogue');
  const cityWeights = CITIES.map((c) => COUNTRY_WEIGHT[c.country] ?? 1);
  const sectionWeights = SECTIONS.map((s) => SECTION_WEIGHTS[s]);
  const taken = new Set<string>();
  const specs: PublisherSpec[] = [];
  for (let i = 0; i < n; i++) {
    const id = `p${String(i + 1).padStart(4, '0')}`;
    if (i < wires) {
      const agency = WIRE_AGENCIES[i] as (typeof WIRE_AGENCIES)[number];
      taken.add(agency.name);
      specs.push({
        index: i, id, name: agency.name, kind: 'wire', city: agency.city, section: 'world', format: 'rss',
        behaviour: 'ok', itemsPerHour: 0, fullContent: true, ttlMinutes: 5, maxAgeSeconds: 60, thumbnailShare: 0,
      });
      continue;
    }
    const city = CITIES[rng.weighted(cityWeights)] as City;
    const section = SECTIONS[rng.weighted(sectionWeights)] as Section;
    const format = FORMATS[rng.weighted(FORMAT_WEIGHTS)] as SimFeedFormat;
    const name = uniqueName(rng, city, section, taken);
    taken.add(name);
    specs.push({
      index: i, id, name, kind: 'outlet', city, section, format, behaviour: 'ok',
      itemsPerHour: itemsPerHour(rng),
      fullContent: rng.chance(0.3),
      ttlMinutes: format === 'rss' && rng.chance(0.3) ? rng.pick([15, 30, 60]) : null,
      maxAgeSeconds: rng.chance(0.4) ? rng.pick([60, 300, 900]) : null,
      thumbnailShare: rng.pick([0, 0.3, 0.6, 0.9]),
    });
  }
  assignMisbehaviour(specs, opts.misbehaving ?? {}, Rng.fork(opts.seed, 'misbehaviour'));
  return specs;
}

/** Resolves counts or fractions to counts: a value < 1 is a share of all publishers. */
export function misbehaviourCount(value: number | undefined, total: number): number {
  if (value === undefined || value <= 0) return 0;
  return value < 1 ? Math.round(value * total) : Math.floor(value);
}

/** Marks outlets (never wire agencies) as misbehaving, one mode each, chosen at random. */
export function assignMisbehaviour(specs: PublisherSpec[], mix: MisbehaviourMix, rng: Rng): void {
  const eligible = rng.sample(specs.filter((s) => s.kind === 'outlet'), specs.length);
  let next = 0;
  for (const mode of MISBEHAVIOURS) {
    const count = misbehaviourCount(mix[mode], specs.length);
    for (let c = 0; c < count; c++) {
      const spec = eligible[next++];
      if (!spec) throw new SimulatorConfigError(`not enough outlets for the misbehaviour mix (${JSON.stringify(mix)})`);
      spec.behaviour = mode;
    }
  }
}
