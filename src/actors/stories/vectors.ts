import { STOPWORDS } from '../enrich/text.js';

/**
 * Sparse term vectors for clustering. Terms (words and entity keys) are interned to integer
 * ids once; a vector is two parallel typed arrays sorted by id, so a dot product is a merge and
 * a story profile costs a few hundred bytes instead of a Map of strings.
 */

export interface SparseVec {
  ids: Int32Array;
  weights: Float32Array;
}

export const EMPTY_VEC: SparseVec = { ids: new Int32Array(0), weights: new Float32Array(0) };

/** A vocabulary as plain data (`Vocabulary.export`). */
export interface VocabularyState {
  names: string[];
  docs: number;
  df: Float64Array;
  seen: Float32Array;
  asName: Float32Array;
  nameMask: Uint8Array;
}

/** Term dictionary with running document frequencies (the IDF of an online stream). */
export class Vocabulary {
  private readonly ids = new Map<string, number>();
  private names: string[] = [];
  private df = new Float64Array(1024);
  /** per term: articles seen holding it (background statistics not counted), and of those, as part of a name */
  private seen = new Float32Array(1024);
  private asName = new Float32Array(1024);
  /** per term: 1 when most articles holding it wrote it as part of a name ("rio", "harriers", an entity key) */
  private nameMask = new Uint8Array(1024);
  /** documents counted so far */
  docs = 0;

  id(term: string): number {
    let id = this.ids.get(term);
    if (id === undefined) {
      id = this.names.length;
      this.ids.set(term, id);
      this.names.push(term);
      if (id >= this.df.length) {
        const next = new Float64Array(this.df.length * 2);
        next.set(this.df);
        this.df = next;
        this.seen = grow(this.seen, next.length);
        this.asName = grow(this.asName, next.length);
        const mask = new Uint8Array(next.length);
        mask.set(this.nameMask);
        this.nameMask = mask;
      }
    }
    return id;
  }

  name(id: number): string {
    return this.names[id] ?? '';
  }

  get size(): number {
    return this.names.length;
  }

  /**
   * Start from background statistics (`docs` documents, word -> document count), so IDF is
   * sensible from the first article of a stream.
   */
  seed(docs: number, df: Record<string, number>): void {
    this.docs += docs;
    for (const [term, n] of Object.entries(df)) this.df[this.id(term)]! += n;
  }

  /**
   * Count one document containing these (distinct) term ids, of which `names` (a sorted subset)
   * were written as part of a name in it.
   */
  observe(ids: ArrayLike<number>, names: ArrayLike<number> = NO_NAMES): void {
    this.docs++;
    let k = 0;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      this.df[id]! += 1;
      const seen = ++this.seen[id]!;
      while (k < names.length && names[k]! < id) k++;
      const named = k < names.length && names[k] === id ? ++this.asName[id]! : this.asName[id]!;
      this.nameMask[id] = named * 2 > seen ? 1 : 0;
    }
  }

  /**
   * Per term id, 1 when the term is mostly part of names (people, organisations, places; and
   * every entity or place key): what happened is told by the other words. Live view, grows.
   */
  get nameTerms(): Uint8Array {
    return this.nameMask;
  }

  /** The dictionary and its counts as plain data (a clusterer snapshot). */
  export(): VocabularyState {
    const n = this.names.length;
    return { names: this.names.slice(), docs: this.docs, df: this.df.slice(0, n), seen: this.seen.slice(0, n), asName: this.asName.slice(0, n), nameMask: this.nameMask.slice(0, n) };
  }

  /** Replaces this dictionary with an exported one. */
  import(s: VocabularyState): void {
    const cap = Math.max(1024, 2 ** Math.ceil(Math.log2(Math.max(1, s.names.length))));
    this.ids.clear();
    this.names = s.names.slice();
    for (let i = 0; i < this.names.length; i++) this.ids.set(this.names[i]!, i);
    this.docs = s.docs;
    this.df = new Float64Array(cap);
    this.df.set(s.df);
    this.seen = new Float32Array(cap);
    this.seen.set(s.seen);
    this.asName = new Float32Array(cap);
    this.asName.set(s.asName);
    this.nameMask = new Uint8Array(cap);
    this.nameMask.set(s.nameMask);
  }

  /** Smoothed IDF; `prior` pseudo-documents keep the first articles of a stream from over-weighting every word. */
  idf(id: number, prior = 50): number {
    return Math.log((this.docs + prior + 1) / (this.df[id]! + 1));
  }

  /** Share of documents holding the term. */
  share(id: number): number {
    return this.docs === 0 ? 0 : this.df[id]! / this.docs;
  }
}

const NO_NAMES = new Int32Array(0);

function grow(a: Float32Array, n: number): Float32Array<ArrayBuffer> {
  const next = new Float32Array(n);
  next.set(a);
  return next;
}

/** Light English stemming: plural and possessive endings, so "elephants" meets "elephant". */
export function stem(t: string): string {
  const n = t.length;
  if (n > 4 && t.endsWith('ies')) return t.slice(0, -3) + 'y';
  if (n > 3 && t.charCodeAt(n - 1) === 115 && t.charCodeAt(n - 2) !== 115 && t.charCodeAt(n - 2) !== 117 && t.charCodeAt(n - 2) !== 105) return t.slice(0, -1);
  return t;
}

/** True for tokens that can carry story identity (not stopwords, not bare short numbers). */
export function isContentToken(t: string): boolean {
  if (t.length < 2 || STOPWORDS.has(t)) return false;
  const c = t.charCodeAt(0);
  if (c >= 48 && c <= 57 && t.length < 4) return false;
  return true;
}

/** Build a vector from (term id -> raw weight) pairs, L2-normalised, sorted by id. */
export function toVec(raw: Map<number, number>, keep: number): SparseVec {
  let entries = [...raw.entries()];
  if (entries.length > keep) entries = entries.sort((a, b) => b[1] - a[1]).slice(0, keep);
  entries.sort((a, b) => a[0] - b[0]);
  const ids = new Int32Array(entries.length);
  const weights = new Float32Array(entries.length);
  let norm = 0;
  for (const [, w] of entries) norm += w * w;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < entries.length; i++) {
    ids[i] = entries[i]![0];
    weights[i] = entries[i]![1] / norm;
  }
  return { ids, weights };
}

/** Dot product of two id-sorted vectors. */
export function dot(a: SparseVec, b: SparseVec): number {
  let i = 0, j = 0, s = 0;
  const ai = a.ids, bi = b.ids;
  while (i < ai.length && j < bi.length) {
    const x = ai[i]!, y = bi[j]!;
    if (x === y) { s += a.weights[i]! * b.weights[j]!; i++; j++; }
    else if (x < y) i++;
    else j++;
  }
  return s;
}

/** Euclidean norm. */
export function norm(v: SparseVec): number {
  let s = 0;
  for (let i = 0; i < v.weights.length; i++) s += v.weights[i]! * v.weights[i]!;
  return Math.sqrt(s);
}

/**
 * `acc + v`, keeping at most `cap` heaviest entries (a story centroid stays bounded however
 * many articles join). Returns a new vector; the inputs are not changed.
 */
export function addInto(acc: SparseVec, v: SparseVec, cap: number): SparseVec {
  const n = acc.ids.length + v.ids.length;
  const ids = new Int32Array(n);
  const w = new Float32Array(n);
  let i = 0, j = 0, k = 0;
  while (i < acc.ids.length || j < v.ids.length) {
    const x = i < acc.ids.length ? acc.ids[i]! : 0x7fffffff;
    const y = j < v.ids.length ? v.ids[j]! : 0x7fffffff;
    if (x === y) { ids[k] = x; w[k] = acc.weights[i]! + v.weights[j]!; i++; j++; }
    else if (x < y) { ids[k] = x; w[k] = acc.weights[i]!; i++; }
    else { ids[k] = y; w[k] = v.weights[j]!; j++; }
    k++;
  }
  if (k <= cap) return { ids: ids.slice(0, k), weights: w.slice(0, k) };
  // keep the `cap` heaviest, still sorted by id
  const order = Array.from({ length: k }, (_, x) => x).sort((a, b) => w[b]! - w[a]!).slice(0, cap).sort((a, b) => ids[a]! - ids[b]!);
  const oi = new Int32Array(cap);
  const ow = new Float32Array(cap);
  for (let x = 0; x < cap; x++) { oi[x] = ids[order[x]!]!; ow[x] = w[order[x]!]!; }
  return { ids: oi, weights: ow };
}
