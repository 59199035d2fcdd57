/**
 * Kinds of happening, by the words news uses for them. Two reports whose kinds disagree (a ferry
 * capsizing and a building collapse) are two events however alike the rest of their wording is:
 * formulaic news writes both as "investigators began searching for the cause of a ... in Houston
 * that killed 34 people". Words of one kind are grouped (a "blaze" is a "wildfire"); kinds that
 * one event brings together agree (a quake's buildings collapse, a storm capsizes a ferry); a
 * report may name several, and any agreement is enough. Most articles name none (a mask of 0
 * agrees with everything).
 */

const KINDS: Record<string, string[]> = {
  quake: ['earthquake', 'earthquakes', 'quake', 'quakes', 'tremor', 'tremors', 'aftershock', 'aftershocks', 'seismic'],
  flood: ['flood', 'floods', 'flooding', 'flooded', 'floodwaters', 'floodwater', 'deluge'],
  fire: ['wildfire', 'wildfires', 'fire', 'fires', 'blaze', 'blazes', 'bushfire', 'bushfires', 'firefighters', 'inferno'],
  storm: ['storm', 'storms', 'cyclone', 'hurricane', 'typhoon', 'tornado', 'gales'],
  collapse: ['collapse', 'collapsed', 'collapses'],
  capsize: ['capsizing', 'capsized', 'capsizes', 'capsize', 'ferry', 'ferries', 'sank', 'sinking'],
  bus: ['bus', 'buses'],
  train: ['train', 'trains', 'derailment', 'derailed', 'derails'],
  plane: ['airliner', 'aircraft'],
  blast: ['explosion', 'explosions', 'blast', 'blasts', 'exploded'],
  protest: ['protest', 'protests', 'protesters', 'protestors', 'protested', 'demonstrators', 'demonstration', 'demonstrations', 'marches', 'marchers', 'marched', 'rally', 'rallies', 'riot', 'riots'],
  election: ['election', 'elections', 'electoral', 'voters', 'polls', 'ballot', 'ballots', 'turnout', 'runoff', 'referendum'],
  outbreak: ['outbreak', 'outbreaks', 'epidemic', 'pandemic', 'cholera', 'measles', 'ebola', 'dengue', 'mpox', 'infections'],
  strike: ['strike', 'strikers', 'walkout', 'walkouts', 'stoppage'],
  summit: ['summit', 'summits'],
  premiere: ['premiere', 'premieres', 'premiered'],
  awards: ['awards', 'award', 'prize', 'prizes', 'oscars', 'grammys', 'nominations', 'nominees'],
};

/** kinds one event often brings together (either way round) */
const TOGETHER: [string, string][] = [
  ['quake', 'collapse'], ['quake', 'fire'], ['quake', 'flood'], ['storm', 'flood'], ['storm', 'collapse'], ['storm', 'capsize'],
  ['storm', 'fire'], ['flood', 'collapse'], ['flood', 'capsize'], ['blast', 'fire'], ['blast', 'collapse'],
  ['plane', 'fire'], ['train', 'fire'], ['bus', 'fire'],
  ['strike', 'protest'],
];

const NAMES = Object.keys(KINDS);
const BIT = new Map(NAMES.map((k, i) => [k, 1 << i]));
const KIND_OF = new Map<string, number>();
for (const [k, words] of Object.entries(KINDS)) for (const w of words) KIND_OF.set(w, BIT.get(k)!);
/** per kind bit: itself and the kinds it goes with */
const AGREES = NAMES.map((k) => TOGETHER.reduce((m, [x, y]) => (x === k ? m | BIT.get(y)! : y === k ? m | BIT.get(x)! : m), BIT.get(k)!));

/** kinds of disaster and accident: one city rarely has two of one kind within days */
const DISASTERS = ['quake', 'flood', 'fire', 'storm', 'collapse', 'capsize', 'bus', 'train', 'plane', 'blast'].reduce((m, k) => m | BIT.get(k)!, 0);

/** Whether both masks name one kind of disaster (the same one, not merely kinds that go together). */
export function sameDisaster(a: number, b: number): boolean {
  return (a & b & DISASTERS) !== 0;
}

/** Bit mask of the kind a lower-cased token names (0: none). */
export function kindOf(token: string): number {
  return KIND_OF.get(token) ?? 0;
}

/** Whether two kind masks agree: either names none, or a kind of one agrees with a kind of the other. */
export function kindsAgree(a: number, b: number): boolean {
  if (a === 0 || b === 0) return true;
  for (let i = 0; i < AGREES.length; i++) if ((a >> i) & 1 && (AGREES[i]! & b) !== 0) return true;
  return false;
}
