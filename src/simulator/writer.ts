import { fill, simKindOf, type SimEvent } from './events.js';
import { FIRST_NAMES, LAST_NAMES, SYNONYMS } from './lexicon.js';
import { hashString, Rng } from './prng.js';
import { vary } from './templates.js';

/** The text of one article. Never stored in bulk: items keep a recipe and re-write on demand. */
export interface Story {
  readonly title: string;
  readonly paragraphs: readonly string[];
  readonly author: string;
}

export interface WireAgency {
  readonly name: string;
  readonly short: string;
}

/** What an edit did to a wire copy; exposed in ground truth so benchmarks can slice by edit. */
export interface Edits {
  suffix: boolean;
  update: boolean;
  swappedWord: boolean;
  datelineDropped: boolean;
  trimmed: boolean;
  credit: boolean;
}

/** The wire agency's original story about `ev`: dateline, lead, three to four short paragraphs. */
export function writeWire(ev: SimEvent, agency: WireAgency, seed: string): Story {
  const rng = new Rng(`wire|${seed}`);
  const k = simKindOf(ev);
  const title = write(rng.pick(k.headlines), ev, rng);
  const lead = write(rng.pick(k.leads), ev, rng);
  const body = rng.sample(k.body, rng.range(2, 4)).map((s) => write(s, ev, rng));
  const dateline = `${ev.place.city.toUpperCase()} (${agency.short}) - `;
  return { title, paragraphs: [dateline + lead, ...body], author: agency.name };
}

const WORD_RE = /[A-Za-z]+/g;

/** Swaps one word that a copy editor would plausibly change; returns the text unchanged if none. */
export function swapWord(text: string, rng: Rng): string {
  const hits: { index: number; word: string; to: string }[] = [];
  for (const m of text.matchAll(WORD_RE)) {
    const w = m[0].toLowerCase();
    for (const [a, b] of SYNONYMS) {
      if (w === a) hits.push({ index: m.index ?? 0, word: m[0], to: b });
      else if (w === b) hits.push({ index: m.index ?? 0, word: m[0], to: a });
    }
  }
  if (hits.length === 0) return text;
  const h = rng.pick(hits);
  const to = h.word[0] === h.word[0]?.toUpperCase() ? h.to[0]?.toUpperCase() + h.to.slice(1) : h.to;
  return text.slice(0, h.index) + to + text.slice(h.index + h.word.length);
}

/** An outlet's copy of a wire story with the edits syndication really makes. */
export function syndicate(wire: Story, outlet: string, seed: string): { story: Story; edits: Edits } {
  const rng = new Rng(`copy|${seed}`);
  const edits: Edits = { suffix: false, update: false, swappedWord: false, datelineDropped: false, trimmed: false, credit: false };
  let title = wire.title;
  if (rng.chance(0.2)) {
    title = `UPDATE ${rng.range(1, 3)}-${title}`;
    edits.update = true;
  }
  if (rng.chance(0.35)) {
    const swapped = swapWord(title, rng);
    edits.swappedWord ||= swapped !== title;
    title = swapped;
  }
  if (rng.chance(0.55)) {
    title = `${title}${rng.chance(0.75) ? ' | ' : ' - '}${outlet}`;
    edits.suffix = true;
  }
  const paragraphs = wire.paragraphs.slice();
  if (rng.chance(0.3)) {
    paragraphs[0] = (paragraphs[0] ?? '').replace(/^[^-]+ \([^)]+\) - /, '');
    edits.datelineDropped = true;
  }
  if (rng.chance(0.4)) {
    const i = rng.int(paragraphs.length);
    const swapped = swapWord(paragraphs[i] ?? '', rng);
    edits.swappedWord ||= swapped !== paragraphs[i];
    paragraphs[i] = swapped;
  }
  if (paragraphs.length > 2 && rng.chance(0.5)) {
    paragraphs.pop();
    edits.trimmed = true;
  }
  if (rng.chance(0.15)) {
    paragraphs.push(`Additional reporting by ${outlet} staff.`);
    edits.credit = true;
  }
  const author = rng.chance(0.5) ? wire.author : `${outlet} staff and ${wire.author}`;
  return { story: { title, paragraphs, author }, edits };
}

/** One paraphrase of a template sentence, with the event's facts filled in. */
function write(pattern: string, ev: SimEvent, rng: Rng): string {
  return fill(vary(pattern, rng), ev.slots);
}

const FRAMINGS = ['', '', '', '', 'Analysis: ', 'Explainer: ', 'Live: ', 'Opinion: '];

/** How an outlet writes headlines: in sentence case, or with Every Main Word Capitalised. */
export type HeadlineStyle = 'sentence' | 'title';

/** An outlet's house style, fixed by its id: about a quarter of outlets write Title Case. */
export function headlineStyleOf(outletId: string): HeadlineStyle {
  return hashString(`style|${outletId}`) % 4 === 0 ? 'title' : 'sentence';
}

/** Words Title Case leaves in lower case inside a headline. */
const SMALL_WORDS = new Set(['a', 'an', 'the', 'and', 'but', 'or', 'nor', 'for', 'on', 'at', 'to', 'by', 'in', 'of', 'as', 'vs', 'via', 'per']);

/** "Strong quake rattles Casablanca, 60 dead" -> "Strong Quake Rattles Casablanca, 60 Dead". */
export function titleCase(headline: string): string {
  let first = true;
  return headline.replace(/[A-Za-z][\w'’-]*/g, (w, at: number) => {
    const isFirst = first || /[:"]\s*$/.test(headline.slice(0, at));
    first = false;
    if (!isFirst && SMALL_WORDS.has(w)) return w;
    return w.charAt(0).toUpperCase() + w.slice(1);
  });
}

/** The headline `writeOriginal` would write (the same first draws), without the body. */
export function originalTitle(ev: SimEvent, seed: string, style: HeadlineStyle = 'sentence'): string {
  return originalHead(new Rng(`orig|${seed}`), ev, style);
}

function originalHead(rng: Rng, ev: SimEvent, style: HeadlineStyle): string {
  const h = rng.pick(FRAMINGS) + write(rng.pick(simKindOf(ev).headlines), ev, rng);
  return style === 'title' ? titleCase(h) : h;
}

/** An outlet's own article about `ev`: its own headline (in its house style), wording and selection of facts. */
export function writeOriginal(ev: SimEvent, seed: string, style: HeadlineStyle = 'sentence'): Story {
  const rng = new Rng(`orig|${seed}`);
  const k = simKindOf(ev);
  const title = originalHead(rng, ev, style);
  const lead = write(rng.pick(k.leads), ev, rng);
  const body = rng.sample(k.body, rng.range(2, k.body.length)).map((s) => write(s, ev, rng));
  const author = `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`;
  return { title, paragraphs: [lead, ...body], author };
}

/** The item summary: the first paragraph, cut at a word boundary under `max` characters. */
export function summaryOf(story: Story, max = 280): string {
  const first = story.paragraphs[0] ?? '';
  if (first.length <= max) return first;
  const cut = first.slice(0, max);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), 1))}...`;
}
