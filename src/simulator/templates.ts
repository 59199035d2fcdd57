import { FEATURE_KINDS } from './kinds-features.js';
import { NEWS_KINDS } from './kinds-news.js';
import type { Section } from './lexicon.js';
import type { Rng } from './prng.js';

/**
 * Event kinds and the sentences news about them is written from. Slots in braces are filled per
 * event (see events.ts): {person} {person2} {last} {last2} {role} {org} {org2} {city} {country}
 * {n} {n2} {pct} {money} {team} {team2} {score} {work} {product} {condition} {mag} {day} {topic}.
 * Square brackets hold paraphrases, one picked per article: `[struck|hit|shook]`, so two outlets
 * seldom write an event in the same words, as in real news. Headlines come in several styles per
 * kind (a statement, a `City quake:` label, a question, a quote, a live page, a number first).
 * Kinds marked `twin` recur in different places at once (two earthquakes, two strikes): their
 * stories share many words but are different events, which is what over-merging tests need.
 * Kinds with `topics` can happen twice in one city on one day (a fuel-price march and a pension
 * march), told apart only by what they are about.
 */
export interface EventKind {
  readonly kind: string;
  readonly category: Section;
  readonly twin: boolean;
  readonly roles: readonly string[];
  /** what an event of this kind is about (`{topic}`), when one city can have two at once */
  readonly topics?: readonly string[];
  readonly headlines: readonly string[];
  readonly leads: readonly string[];
  readonly body: readonly string[];
}

export const EVENT_KINDS: readonly EventKind[] = [...NEWS_KINDS, ...FEATURE_KINDS];

export function kindsFor(category: Section): EventKind[] {
  return EVENT_KINDS.filter((k) => k.category === category);
}

const CHOICE = /\[([^\[\]]*)\]/g;

/** One paraphrase of `pattern`: every `[a|b|c]` group replaced by one of its alternatives. */
export function vary(pattern: string, rng: Rng): string {
  if (!pattern.includes('[')) return pattern;
  return pattern.replace(CHOICE, (_m, alts: string) => rng.pick(alts.split('|')));
}
