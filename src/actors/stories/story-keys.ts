/** Key bookkeeping of a story: which entities, places and cities its articles name, how often. */

/**
 * Count keys into `counts` (flat [id, count, id, count, ...]: a story names few keys, and a
 * Map per story would cost more than the story itself); returns how many reach half of `n`.
 */
export function countKeys(counts: number[] | null, ids: Int32Array, n: number): [number[] | null, number] {
  if (ids.length > 0) {
    counts ??= [];
    for (const id of ids) {
      let k = 0;
      while (k < counts.length && counts[k] !== id) k += 2;
      if (k < counts.length) counts[k + 1]!++;
      else if (counts.length < 64) counts.push(id, 1);
    }
  }
  if (!counts) return [null, 0];
  let dominant = 0;
  for (let k = 1; k < counts.length; k += 2) if (counts[k]! * 2 >= n) dominant++;
  return [counts, dominant];
}

/** `a` with the ids of `b` added, sorted, at most `cap` in all (`a` as it is once full). */
export function mergeIds(a: Int32Array, b: Int32Array, cap: number): Int32Array {
  if (b.length === 0 || a.length >= cap) return a;
  const s = new Set(a);
  for (const x of b) s.add(x);
  if (s.size === a.length) return a;
  const out = Int32Array.from(s).slice(0, Math.max(cap, a.length));
  return out.sort();
}

/** The lead's keys plus every key named by at least half the story's articles, sorted. */
export function coreIds(lead: Int32Array, counts: number[] | null, n: number): Int32Array {
  if (!counts) return lead;
  let extra: number[] | null = null;
  for (let k = 1; k < counts.length; k += 2) {
    const id = counts[k - 1]!;
    if (counts[k]! * 2 >= n && !lead.includes(id)) (extra ??= []).push(id);
  }
  if (!extra) return lead;
  const out = new Int32Array(lead.length + extra.length);
  out.set(lead);
  out.set(extra, lead.length);
  return out.sort();
}

/** How many ids of `a` are in `b` (both short). */
export function countShared(a: Int32Array, b: Int32Array): number {
  let n = 0;
  for (const x of a) if (b.includes(x)) n++;
  return n;
}

/**
 * A story's theme: the keys at least `share` of its `n` articles name (from `min` articles on),
 * with `weight(id)` each. For "what happened" words, these are the words every report of the
 * event uses ("rents" in every report of a march over rents), which a report of another event
 * of the same kind in the same place lacks.
 */
export function themeOf(counts: number[] | null, n: number, weight: (id: number) => number, share = 0.8, min = 3): { ids: Int32Array; weights: Float32Array } {
  if (!counts || n < min) return NO_THEME;
  const ids: number[] = [];
  for (let k = 1; k < counts.length; k += 2) if (counts[k]! >= share * n) ids.push(counts[k - 1]!);
  if (ids.length === 0) return NO_THEME;
  ids.sort((a, b) => a - b);
  return { ids: Int32Array.from(ids), weights: Float32Array.from(ids, weight) };
}

const NO_THEME = { ids: new Int32Array(0), weights: new Float32Array(0) };
