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
  const out: T[] = [];
  let pending = ranked.slice();
  let page = 0;
  const maxPages = rules.maxPages ?? Infinity;
  while (pending.length > 0) {
    if (page >= maxPages) {
      out.push(...pending);
      break;
    }
    const perPublisher = new Map<string, number>();
    const cats = new Set<string>();
    const taken: T[] = [];
    const deferred: T[] = [];
    const wantCats = page === 0 ? rules.minCategories : 0;
    for (let i = 0; i < pending.length; i++) {
      const it = pending[i]!;
      if (taken.length >= rules.pageSize) {
        deferred.push(...pending.slice(i));
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
        const rest = pending.slice(i + 1);
        if (rest.some((r) => r.category !== null && !cats.has(r.category) && (perPublisher.get(r.publisher) ?? 0) < rules.maxPerPublisher)) {
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
    while (taken.length < rules.pageSize && deferred.length > 0) taken.push(deferred.shift()!);
    out.push(...taken);
    pending = deferred;
    page++;
  }
  return out;
}
