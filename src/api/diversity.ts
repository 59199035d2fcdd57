/**
 * Feed diversity as a pure re-ranking: walk the ranked candidates and fill pages of `pageSize`
 * so that no publisher has more than `maxPerPublisher` items on a page and, on the first page,
 * at least `minCategories` categories appear when the candidates allow it. Items that do not
 * fit a page are deferred to the next one, never dropped, so the relative order of everything
 * else is kept.
 */
export interface Rankable {
  id: string;
  publisher: string;
  category: string | null;
}

export interface DiversityRules {
  pageSize: number;
  maxPerPublisher: number;
  /** categories wanted on the first page (0 for none) */
  minCategories: number;
  /** pages filled by the rules; the rest keeps its order (default: all) */
  maxPages?: number;
}

export function diversify<T extends Rankable>(ranked: readonly T[], rules: DiversityRules): T[] {
  // Index loops and reused containers, no slices: the personalised feed runs this per request.
  const out: T[] = [];
  let pending: T[] = ranked.slice();
  let deferred: T[] = [];
  const taken: T[] = [];
  const perPublisher = new Map<string, number>();
  const cats = new Set<string>();
  const maxPages = rules.maxPages ?? Infinity;
  for (let page = 0; pending.length > 0; page++) {
    if (page >= maxPages) {
      for (let i = 0; i < pending.length; i++) out.push(pending[i]!);
      break;
    }
    perPublisher.clear();
    cats.clear();
    taken.length = 0;
    deferred.length = 0;
    const wantCats = page === 0 ? rules.minCategories : 0;
    for (let i = 0; i < pending.length; i++) {
      const it = pending[i]!;
      if (taken.length >= rules.pageSize) {
        for (let j = i; j < pending.length; j++) deferred.push(pending[j]!);
        break;
      }
      const n = perPublisher.get(it.publisher) ?? 0;
      if (n >= rules.maxPerPublisher) {
        deferred.push(it);
        continue;
      }
      // keep the last slots of the first page for categories not yet shown, if any remain
      const slotsLeft = rules.pageSize - taken.length;
      const missing = wantCats - cats.size;
      if (missing > 0 && slotsLeft <= missing && it.category !== null && cats.has(it.category)) {
        let another = false;
        for (let j = i + 1; j < pending.length && !another; j++) {
          const r = pending[j]!;
          another = r.category !== null && !cats.has(r.category) && (perPublisher.get(r.publisher) ?? 0) < rules.maxPerPublisher;
        }
        if (another) {
          deferred.push(it);
          continue;
        }
      }
      taken.push(it);
      perPublisher.set(it.publisher, n + 1);
      if (it.category !== null) cats.add(it.category);
    }
    // An underfull page would shift every later page boundary: when the rules cannot be met
    // (too few publishers left), fill it in rank order instead.
    let d = 0;
    while (taken.length < rules.pageSize && d < deferred.length) taken.push(deferred[d++]!);
    for (let i = 0; i < taken.length; i++) out.push(taken[i]!);
    // what was deferred (and not used to fill) is the next page's pending list
    const next = pending;
    pending = d === 0 ? deferred : deferred.slice(d);
    deferred = next;
  }
  return out;
}
