import { readFileSync } from 'node:fs';
import { CATEGORIES } from '../enrich/topic-model.js';
import { toMillis, type ArticleInput } from '../enrich/text.js';
import { countRegions, editions, REGION_KEYS } from './editions.js';
import { articleFeatures, whatPart, type ClusterFeatures, type ClusterHints } from './features.js';
import { isStraightReport, pickCentralLead, type CentralCandidate, type LeadPolicy } from './lead.js';
import { scoreStory, type StoryProfile } from './scoring.js';
import { FEATURES, loadStoryModel, pairFeatures, probability, type Shape, type StoryModel } from './story-model.js';
import { HEADLINE_IN_BODIED_WEIGHTS, HEADLINE_WEIGHTS, SNIPPET_WEIGHTS, TEXT_WEIGHTS, type ScoreWeights } from './weights.js';
import { coreIds, countKeys, countShared, mergeIds, themeOf } from './story-keys.js';
import { TermIndex } from './term-index.js';
import { addInto, dot, EMPTY_VEC, norm, Vocabulary, type SparseVec, type VocabularyState } from './vectors.js';

/**
 * Online story clustering over an active window. Each article probes an inverted index of
 * salient terms and entities for candidate stories, scores the best few, and joins the top one
 * above the threshold or opens a new story. Duplicates follow their original. Stories whose
 * last article is older than the window leave the index (and go to `onArchive`) but stay
 * queryable through `get`.
 */

/** A story as stored and announced: a view without its article list (which can be long). */
export type StorySummary = Omit<StoryView, 'article_ids'>;

export interface StoryView {
  id: string;
  title: string;
  lead_article_id: string;
  article_count: number;
  publisher_count: number;
  first_seen: number;
  updated: number;
  category: string | null;
  /** editions the story is filed in: `home_regions` first, then those whose publishers carry enough of it */
  regions: string[];
  /** editions where it happened: regions of the places a fair share of its articles name */
  home_regions: string[];
  entities: string[];
  article_ids: string[];
  active: boolean;
}

export interface AddResult {
  storyId: string;
  joined: boolean;
  /**
   * how the story was chosen ('known': the article was added before, nothing changed; 'placed':
   * the caller named the story, as a replay of stored articles does)
   */
  via: 'new' | 'score' | 'duplicate' | 'placed' | 'known';
  score: number;
  leadChanged: boolean;
  leadArticleId: string;
  articleCount: number;
}

export interface ClustererOptions {
  /** active window, ms (default 48 h) */
  windowMs?: number;
  /** overrides for headline-only articles */
  weights?: Partial<ScoreWeights>;
  /** overrides for headline-only articles against a story with a writing that has a snippet or text */
  headlineInBodiedWeights?: Partial<ScoreWeights>;
  /** overrides for articles with a snippet (at least `snippetChars`, less than `textChars`) */
  snippetWeights?: Partial<ScoreWeights>;
  /** body length from which the snippet profile applies (default 40) */
  snippetChars?: number;
  /** overrides for articles with at least `textChars` of snippet or text */
  textWeights?: Partial<ScoreWeights>;
  /** body length from which the text profile applies (default 400) */
  textChars?: number;
  lead?: LeadPolicy;
  /** called with each story leaving the active window */
  onArchive?: (story: StoryView) => void;
  /** keep archived stories in memory for `get` (default true; a store can take over) */
  keepArchive?: boolean;
  /**
   * candidates fully scored per article (default 20: the best 20 by salient-term overlap scored
   * UCI, ECB+ and simulated events as well as 40 did, 0.908 against 0.902 on the simulator, at half the cost)
   */
  maxCandidates?: number;
  /**
   * the learned story similarity (story-model.ts; default: config/models/story-model.json when
   * present; false: the hand-weighted score of weights.ts)
   */
  model?: StoryModel | false;
  /**
   * training: called for an article placed with a named story (`add`'s third argument) with the
   * features of every candidate story the index offered, before it is placed
   */
  onPairs?: (pairs: { storyId: string; x: Float64Array }[], shape: Shape, articleId: string) => void;
  /** background word statistics for IDF (default: config/models/background-df.json; false: none) */
  background?: false | { docs: number; df: Record<string, number> };
}

let backgroundCache: { docs: number; df: Record<string, number> } | null = null;

/** The committed background document frequencies (bench/train-topics.ts writes them). */
export function loadBackgroundDf(): { docs: number; df: Record<string, number> } {
  backgroundCache ??= JSON.parse(readFileSync(new URL('../../../config/models/background-df.json', import.meta.url), 'utf8')) as { docs: number; df: Record<string, number> };
  return backgroundCache;
}

/**
 * A clusterer's whole state as plain data (structured-clone friendly: `v8.serialize` keeps the
 * typed arrays and shared vectors): a clusterer restored from it decides every later article as
 * the one it was taken from does. Stories are renumbered densely, in the order they opened.
 */
export interface ClustererSnapshot {
  format: typeof SNAPSHOT_FORMAT;
  windowMs: number;
  clock: number;
  lastSweep: number;
  vocab: VocabularyState;
  stories: Story[];
  postings: { terms: Int32Array; counts: Int32Array; slots: Int32Array };
}

export const SNAPSHOT_FORMAT = 1;

interface Story extends StoryProfile {
  slot: number;
  id: string;
  n: number;
  publishers: string[];
  catCounts: number[];
  /** per edition (REGION_KEYS order): articles whose places lie there, then articles whose publisher is there */
  regionCounts: Uint16Array;
  lead: LeadMember;
  /** members that may lead (at most LEAD_POOL): the opener, then the most central of those that joined */
  pool: LeadMember[];
  articleIds: string[];
  posted: number[];
  /** article counts per person / place key, allocated only when the story names any */
  personCounts: number[] | null;
  placeCounts: number[] | null;
  entityCounts: number[] | null;
  /** the lead's keys, kept for the core */
  leadEntityIds: Int32Array;
  /** possessive names of the latest lead that had any (features.ts `possessiveIds`): whose story it is */
  leadPossessiveIds: Int32Array;
  leadPlaceIds: Int32Array;
  leadCityIds: Int32Array;
  cityCounts: number[] | null;
  /** article counts per "what" term (flat [id, count, ...]) over the story's own writings (not duplicates) */
  themeCounts: number[] | null;
  /** articles that are not duplicates of another */
  writings: number;
  /** of those, the ones with a snippet or text (at least `snippetChars`) */
  bodied: number;
}

/** A member that may lead the story: its standing, its vector, and the keys a lead gives its story. */
interface LeadMember extends CentralCandidate {
  title: string;
  vec: SparseVec;
  f: Pick<ClusterFeatures, 'titleIds' | 'headNames' | 'frameIds' | 'entityIds' | 'possessiveIds' | 'placeIds' | 'cityIds'>;
}

const LEAD_POOL = 8;
const ENTITY_CAP = 32;
const NO_THEME = { ids: new Int32Array(0), weights: new Float32Array(0) };
/** a story's theme: the "what" words at least 90 % of its writings use, from 4 writings on */
const THEME_SHARE = 0.9;
const THEME_MIN = 4;
const EXEMPLARS = 5;
const CENTROID_TERMS = 192;

export class StoryClusterer {
  readonly vocab = new Vocabulary();
  private readonly weights: ScoreWeights;
  private readonly snippetWeights: ScoreWeights;
  private readonly textWeights: ScoreWeights;
  private readonly headlineInBodiedWeights: ScoreWeights;
  private readonly windowMs: number;
  private readonly maxCandidates: number;
  private readonly slots: (Story | null)[] = [];
  private readonly byId = new Map<string, Story>();
  private readonly articleStory = new Map<string, Story>();
  private readonly archive = new Map<string, StoryView>();
  private readonly index: TermIndex;
  private clock = -Infinity;
  /** scratch: the current article's vector (and its "what" part) by term id (all zero between articles) */
  private dense = new Float32Array(0);
  private denseWhat = new Float32Array(0);
  private lastSweep = -Infinity;
  private readonly model: StoryModel | null;
  private readonly x = new Float64Array(FEATURES.length);

  constructor(private readonly opts: ClustererOptions = {}) {
    this.weights = { ...HEADLINE_WEIGHTS, ...opts.weights };
    this.snippetWeights = { ...SNIPPET_WEIGHTS, ...opts.snippetWeights };
    this.textWeights = { ...TEXT_WEIGHTS, ...opts.textWeights };
    this.headlineInBodiedWeights = { ...HEADLINE_IN_BODIED_WEIGHTS, ...opts.headlineInBodiedWeights };
    this.windowMs = opts.windowMs ?? 48 * 3_600_000;
    this.maxCandidates = opts.maxCandidates ?? 20;
    this.index = new TermIndex(this.vocab, (slot) => this.slots[slot] != null);
    this.model = opts.model === false ? null : opts.model ?? loadStoryModel();
    const bg = opts.background === undefined ? loadBackgroundDf() : opts.background;
    if (bg) this.vocab.seed(bg.docs, bg.df);
  }

  /** Stories in the active window. */
  get activeCount(): number {
    return this.byId.size;
  }

  /**
   * Add one article (with its enrichment when available); returns the story it went to. `story`
   * names the story it already belongs to, when that is known outside this index: an article
   * replayed from the store (its stored story), or a wire copy whose original is stored or was
   * clustered earlier (the original's story). It then goes there without being scored, and when
   * the window does not hold that story (its articles are not replayed yet, or it left the
   * window) the story is opened again under that id. Without it a duplicate follows its original
   * when the index knows the original, and anything else is scored.
   */
  add(a: ArticleInput, hints: ClusterHints = {}, story?: string): AddResult {
    // added again (a batch decided but not stored, delivered once more): it stays where it is
    const known = this.articleStory.get(a.id);
    if (known) return { storyId: known.id, joined: true, via: 'known', score: 0, leadChanged: false, leadArticleId: known.lead.articleId, articleCount: known.n };
    const t = toMillis(a.published_at);
    if (Number.isFinite(t) && t > this.clock) this.clock = t;
    if (this.clock - this.lastSweep > this.windowMs / 48) this.evictBefore(this.clock - this.windowMs);
    const f = articleFeatures(this.vocab, a, hints, this.clock);
    const category = hints.category ?? null;

    if (story && this.opts.onPairs && !a.duplicate_of) this.tracePairs(a, f, category);
    if (story) {
      const s = this.byId.get(story);
      const via = a.duplicate_of ? 'duplicate' : 'placed';
      return s ? this.join(s, a, f, hints, 1, via) : this.open(a, f, hints, 0, story, via);
    }
    const original = a.duplicate_of ? this.articleStory.get(a.duplicate_of) : undefined;
    if (original) return this.join(original, a, f, hints, 1, 'duplicate');

    if (this.model && !this.model.shapes[this.shapeOf(a)].hand) return this.addByModel(a, f, hints, this.model);
    const bodyChars = (a.summary?.length ?? 0) + (a.text?.length ?? 0);
    const w = bodyChars >= (this.opts.textChars ?? 400) ? this.textWeights : bodyChars >= (this.opts.snippetChars ?? 40) ? this.snippetWeights : this.weights;
    let best: Story | null = null;
    let bestScore = -Infinity;
    const dense = this.scatter(f.vec);
    const denseWhat = this.denseWhat;
    for (let i = 0; i < f.what.ids.length; i++) denseWhat[f.what.ids[i]!] = f.what.weights[i]!;
    const headlineOnly = w === this.weights;
    for (const s of this.candidates(f)) {
      const ws = headlineOnly && s.bodied > 0 ? this.headlineInBodiedWeights : w;
      const sc = scoreStory(f, category, s, ws, bestScore, dense, denseWhat).total;
      if (sc > bestScore) { bestScore = sc; best = s; }
    }
    this.unscatter(f.vec);
    for (let i = 0; i < f.what.ids.length; i++) denseWhat[f.what.ids[i]!] = 0;
    if (best && bestScore >= w.threshold) return this.join(best, a, f, hints, bestScore, 'score', !headlineOnly);
    return this.open(a, f, hints, Number.isFinite(bestScore) ? bestScore : 0);
  }

  /** The article's shape: which of the model's weight sets scores it. */
  private shapeOf(a: ArticleInput): Shape {
    const bodyChars = (a.summary?.length ?? 0) + (a.text?.length ?? 0);
    return bodyChars >= (this.opts.textChars ?? 400) ? 'text' : bodyChars >= (this.opts.snippetChars ?? 40) ? 'snippet' : 'headline';
  }

  /** Online clustering with the learned similarity: the most probable candidate at or above the shape's threshold joins. */
  private addByModel(a: ArticleInput, f: ClusterFeatures, hints: ClusterHints, model: StoryModel): AddResult {
    const shape = this.shapeOf(a);
    const m = model.shapes[shape];
    const category = hints.category ?? null;
    const dense = this.scatter(f.vec);
    const denseWhat = this.denseWhat;
    for (let i = 0; i < f.what.ids.length; i++) denseWhat[f.what.ids[i]!] = f.what.weights[i]!;
    let best: Story | null = null;
    let bestP = -1;
    for (const s of this.candidates(f)) {
      const p = probability(m, pairFeatures(f, category, a.publisher, s, this.handWeights(shape, s), dense, denseWhat, this.x));
      if (p > bestP) { bestP = p; best = s; }
    }
    this.unscatter(f.vec);
    for (let i = 0; i < f.what.ids.length; i++) denseWhat[f.what.ids[i]!] = 0;
    if (best && bestP >= m.threshold) return this.join(best, a, f, hints, bestP, 'score', shape !== 'headline');
    return this.open(a, f, hints, Math.max(0, bestP));
  }

  /** Training: the features of every candidate story for `a` (nothing is placed). */
  private tracePairs(a: ArticleInput, f: ClusterFeatures, category: string | null): void {
    const dense = this.scatter(f.vec);
    const denseWhat = this.denseWhat;
    for (let i = 0; i < f.what.ids.length; i++) denseWhat[f.what.ids[i]!] = f.what.weights[i]!;
    const pairs: { storyId: string; x: Float64Array }[] = [];
    const shape = this.shapeOf(a);
    for (const s of this.candidates(f)) pairs.push({ storyId: s.id, x: pairFeatures(f, category, a.publisher, s, this.handWeights(shape, s), dense, denseWhat) });
    this.unscatter(f.vec);
    for (let i = 0; i < f.what.ids.length; i++) denseWhat[f.what.ids[i]!] = 0;
    this.opts.onPairs!(pairs, shape, a.id);
  }

  /** The hand-weighted profile `add` would score this pair with (an input of the model). */
  private handWeights(shape: Shape, s: Story): ScoreWeights {
    if (shape === 'text') return this.textWeights;
    if (shape === 'snippet') return this.snippetWeights;
    return s.bodied > 0 ? this.headlineInBodiedWeights : this.weights;
  }

  /** A story by id, active or archived. */
  get(id: string): StoryView | undefined {
    const s = this.byId.get(id);
    return s ? this.view(s, true) : this.archive.get(id);
  }

  /** An active story without its article list (what a store writes after each change). */
  summary(id: string): StorySummary | undefined {
    const s = this.byId.get(id);
    if (!s) return undefined;
    const ents = [...s.entityIds].map((e) => this.vocab.name(e).slice(2));
    return {
      id: s.id, title: s.lead.title, lead_article_id: s.lead.articleId, article_count: s.n,
      publisher_count: s.publishers.length, first_seen: s.firstSeen, updated: s.updated,
      category: s.category, ...editions(s.regionCounts, s.n), entities: ents, active: true,
    };
  }

  /** Story id of an article still in the active window. */
  storyOf(articleId: string): string | undefined {
    return this.articleStory.get(articleId)?.id;
  }

  /** All active stories (for snapshots and listings). */
  *active(): IterableIterator<StoryView> {
    for (const s of this.byId.values()) yield this.view(s, true);
  }

  /** Articles the active window holds. */
  get articleCount(): number {
    return this.articleStory.size;
  }

  /**
   * The state as plain data (see `ClustererSnapshot`). It shares arrays with this clusterer:
   * serialise it (`encodeSnapshot`) before the next add.
   */
  snapshot(): ClustererSnapshot {
    const remap = new Int32Array(this.slots.length).fill(-1);
    const stories: Story[] = [];
    for (let i = 0; i < this.slots.length; i++) {
      const s = this.slots[i];
      if (!s) continue;
      remap[i] = stories.length;
      stories.push({ ...s, slot: stories.length });
    }
    return { format: SNAPSHOT_FORMAT, windowMs: this.windowMs, clock: this.clock, lastSweep: this.lastSweep, vocab: this.vocab.export(), stories, postings: this.index.exportPostings(remap) };
  }

  /**
   * Replaces the active window with a snapshot's (archived stories are kept). Throws when it was
   * taken with another window or format: the caller replays the store instead.
   */
  restore(snap: ClustererSnapshot): void {
    if (snap.format !== SNAPSHOT_FORMAT || snap.windowMs !== this.windowMs) throw new Error(`story snapshot format ${snap.format} / window ${snap.windowMs} ms does not fit this clusterer (format ${SNAPSHOT_FORMAT}, window ${this.windowMs} ms)`);
    this.vocab.import(snap.vocab);
    this.slots.length = 0;
    this.byId.clear();
    this.articleStory.clear();
    for (const s of snap.stories) {
      this.slots.push(s);
      this.byId.set(s.id, s);
      for (const id of s.articleIds) this.articleStory.set(id, s);
    }
    this.index.importPostings(snap.postings);
    this.clock = snap.clock;
    this.lastSweep = snap.lastSweep;
  }

  /** Move stories last updated before `cutoff` out of the active window. */
  evictBefore(cutoff: number): number {
    this.lastSweep = this.clock;
    let n = 0;
    for (const s of this.byId.values()) {
      if (s.updated >= cutoff) continue;
      this.byId.delete(s.id);
      this.slots[s.slot] = null;
      this.index.unpost(s.slot, s.posted);
      for (const id of s.articleIds) if (this.articleStory.get(id) === s) this.articleStory.delete(id);
      const v = this.view(s, false);
      if (this.opts.keepArchive !== false) this.archive.set(s.id, v);
      this.opts.onArchive?.(v);
      n++;
    }
    return n;
  }

  /** `v` written into the dense scratch array (grown with the vocabulary); `unscatter` clears it. */
  private scatter(v: SparseVec): Float32Array {
    if (this.dense.length < this.vocab.size) {
      const n = Math.max(this.vocab.size, this.dense.length * 2, 1024);
      this.dense = new Float32Array(n);
      this.denseWhat = new Float32Array(n);
    }
    const d = this.dense;
    for (let i = 0; i < v.ids.length; i++) d[v.ids[i]!] = v.weights[i]!;
    return d;
  }

  private unscatter(v: SparseVec): void {
    for (let i = 0; i < v.ids.length; i++) this.dense[v.ids[i]!] = 0;
  }

  private *candidates(f: ClusterFeatures): Iterable<Story> {
    for (const slot of this.index.candidates(f.salient, this.slots.length, this.maxCandidates)) yield this.slots[slot]!;
  }

  private post(s: Story, ids: Int32Array): void {
    this.index.post(s.slot, s.posted, ids);
  }

  private candidateOf(a: ArticleInput, f: ClusterFeatures, overlap: number): LeadMember {
    const depth = (a.summary?.length ?? 0) + Math.min(a.text?.length ?? 0, 3000) / 3;
    return {
      articleId: a.id, publisher: a.publisher, time: f.time, depth, duplicate: !!a.duplicate_of, overlap, title: a.title,
      centrality: 1, straight: isStraightReport(a.title, a.url), eligible: true, vec: f.vec,
      f: { titleIds: f.titleIds, headNames: f.headNames, frameIds: f.frameIds, entityIds: f.entityIds, possessiveIds: f.possessiveIds, placeIds: f.placeIds, cityIds: f.cityIds },
    };
  }

  /**
   * The story's lead after `m` joined (issue 21): its most central member (cosine to the
   * centroid, which ranks members as their mean similarity to the others does), a straight
   * report before an Opinion, Analysis, Live or Explainer piece, standing as a milder factor
   * (lead.ts `centralLeadValue`). Only members the clusterer joined (or the opener) are in the
   * pool; a full pool drops its least central member that is not the lead.
   */
  private chooseLead(s: Story, m: LeadMember): boolean {
    s.pool.push(m);
    for (const p of s.pool) p.centrality = s.centroidNorm > 0 ? dot(p.vec, s.centroid) / s.centroidNorm : 0;
    if (s.pool.length > LEAD_POOL) {
      let drop = -1;
      for (let i = 0; i < s.pool.length; i++) if (s.pool[i] !== s.lead && (drop < 0 || s.pool[i]!.centrality < s.pool[drop]!.centrality)) drop = i;
      s.pool.splice(drop, 1);
    }
    const next = pickCentralLead(s.pool, s.lead, s.updated, this.opts.lead);
    if (!next || next === s.lead) return false;
    s.lead = next;
    s.leadTitleIds = next.f.titleIds;
    s.leadNames = next.f.headNames;
    s.leadFrameIds = next.f.frameIds;
    s.leadEntityIds = next.f.entityIds;
    if (next.f.possessiveIds.length > 0) s.leadPossessiveIds = next.f.possessiveIds;
    s.leadPlaceIds = next.f.placeIds;
    s.leadCityIds = next.f.cityIds;
    return true;
  }

  private open(a: ArticleInput, f: ClusterFeatures, hints: ClusterHints, score: number, id = `st_${a.id}`, via: AddResult['via'] = 'new'): AddResult {
    const slot = this.slots.length;
    const catCounts: number[] = new Array<number>(CATEGORIES.length).fill(0);
    const ci = hints.category ? CATEGORIES.indexOf(hints.category as never) : -1;
    if (ci >= 0) catCounts[ci] = 1;
    const s: Story = {
      slot, id, n: 1, publishers: [a.publisher], catCounts,
      regionCounts: new Uint16Array(REGION_KEYS.length * 2),
      centroid: f.vec, centroidNorm: norm(f.vec), whatNorm: f.whatNorm, exemplars: [f.vec],
      entityIds: f.entityIds, personIds: f.personIds, placeIds: f.placeIds, leadTitleIds: f.titleIds,
      updated: f.time, firstSeen: f.time, category: hints.category ?? null,
      lead: this.candidateOf(a, f, 0), pool: [], articleIds: [a.id], posted: [],
      personCounts: null, placeCounts: null, entityCounts: null, dominantPersons: 0, dominantPlaces: 0, dominantEntities: 0,
      leadEntityIds: f.entityIds, leadPossessiveIds: f.possessiveIds, leadPlaceIds: f.placeIds, leadCityIds: f.cityIds,
      coreEntityIds: f.entityIds, corePlaceIds: f.placeIds, coreCityIds: f.cityIds, cityCounts: null,
      themeCounts: null, themeIds: NO_THEME.ids, themeWeights: NO_THEME.weights, writings: 1, kinds: f.kinds, leadNames: f.headNames, leadFrameIds: f.frameIds,
      bodied: this.hasBody(a) ? 1 : 0,
    };
    s.pool.push(s.lead);
    [s.themeCounts] = countKeys(null, f.themeIds, 1);
    countRegions(s.regionCounts, hints);
    [s.cityCounts] = countKeys(null, f.cityIds, 1);
    [s.entityCounts, s.dominantEntities] = countKeys(null, f.entityIds, 1);
    [s.personCounts, s.dominantPersons] = countKeys(null, f.personIds, 1);
    [s.placeCounts, s.dominantPlaces] = countKeys(null, f.placeIds, 1);
    this.slots.push(s);
    this.byId.set(s.id, s);
    this.articleStory.set(a.id, s);
    this.post(s, f.salient);
    return { storyId: s.id, joined: false, via, score, leadChanged: true, leadArticleId: a.id, articleCount: 1 };
  }

  /** whether `a` has a snippet or text (not only a headline) */
  private hasBody(a: ArticleInput): boolean {
    return (a.summary?.length ?? 0) + (a.text?.length ?? 0) >= (this.opts.snippetChars ?? 40);
  }

  private join(s: Story, a: ArticleInput, f: ClusterFeatures, hints: ClusterHints, score: number, via: 'score' | 'duplicate' | 'placed', bodied = this.hasBody(a)): AddResult {
    s.n++;
    s.articleIds.push(a.id);
    this.articleStory.set(a.id, s);
    if (!s.publishers.includes(a.publisher)) s.publishers.push(a.publisher);
    countRegions(s.regionCounts, hints);
    const ci = hints.category ? CATEGORIES.indexOf(hints.category as never) : -1;
    if (ci >= 0) {
      s.catCounts[ci]!++;
      let best = 0;
      for (let k = 1; k < CATEGORIES.length; k++) if (s.catCounts[k]! > s.catCounts[best]!) best = k;
      if (s.catCounts[best]! > 0) s.category = CATEGORIES[best]!;
    }
    s.centroid = via === 'duplicate' ? s.centroid : addInto(s.centroid === EMPTY_VEC ? f.vec : s.centroid, f.vec, CENTROID_TERMS);
    s.centroidNorm = norm(s.centroid);
    s.whatNorm = whatPart(s.centroid, this.vocab.nameTerms).whatNorm;
    if (via !== 'duplicate') {
      if (s.exemplars.length >= EXEMPLARS) s.exemplars.splice(1, 1);
      s.exemplars.push(f.vec);
    }
    // the story's kinds are its first writing's that names any: one stray article cannot widen them
    if (!s.kinds) s.kinds = f.kinds;
    s.entityIds = mergeIds(s.entityIds, f.entityIds, ENTITY_CAP);
    s.personIds = mergeIds(s.personIds, f.personIds, ENTITY_CAP);
    s.placeIds = mergeIds(s.placeIds, f.placeIds, ENTITY_CAP);
    [s.cityCounts] = countKeys(s.cityCounts, f.cityIds, s.n);
    [s.personCounts, s.dominantPersons] = countKeys(s.personCounts, f.personIds, s.n);
    [s.placeCounts, s.dominantPlaces] = countKeys(s.placeCounts, f.placeIds, s.n);
    [s.entityCounts, s.dominantEntities] = countKeys(s.entityCounts, f.entityIds, s.n);
    if (via !== 'duplicate') {
      // a wire story and its copies are one writing: counted once, they would make the
      // agency's wording the story's theme
      s.writings++;
      if (bodied) s.bodied++;
      [s.themeCounts] = countKeys(s.themeCounts, f.themeIds, s.writings);
      const theme = themeOf(s.themeCounts, s.writings, (id) => this.vocab.idf(id), THEME_SHARE, THEME_MIN);
      s.themeIds = theme.ids;
      s.themeWeights = theme.weights;
    }
    if (f.time > s.updated) s.updated = f.time;
    if (f.time < s.firstSeen) s.firstSeen = f.time;
    this.post(s, f.salient);

    const ov = s.leadTitleIds.length > 0 ? countShared(f.titleIds, s.leadTitleIds) / Math.max(1, f.titleIds.length) : 0;
    const leadChanged = this.chooseLead(s, this.candidateOf(a, f, ov));
    s.corePlaceIds = coreIds(s.leadPlaceIds, s.placeCounts, s.n);
    s.coreCityIds = coreIds(s.leadCityIds, s.cityCounts, s.n);
    s.coreEntityIds = coreIds(s.leadEntityIds, s.entityCounts, s.n);
    return { storyId: s.id, joined: true, via, score, leadChanged, leadArticleId: s.lead.articleId, articleCount: s.n };
  }

  private view(s: Story, active: boolean): StoryView {
    const ents = [...s.entityIds].map((id) => this.vocab.name(id).slice(2));
    return {
      id: s.id, title: s.lead.title, lead_article_id: s.lead.articleId, article_count: s.n,
      publisher_count: s.publishers.length, first_seen: s.firstSeen, updated: s.updated,
      category: s.category, ...editions(s.regionCounts, s.n), entities: ents, article_ids: [...s.articleIds], active,
    };
  }
}
