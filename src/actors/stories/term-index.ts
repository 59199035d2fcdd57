import type { Vocabulary } from './vectors.js';

/**
 * The inverted index of the active window: salient term id -> the stories (slots) that posted
 * it. Most terms belong to one story, so a posting is a bare slot number until a second story
 * posts the term; crowded lists are trimmed to their newest entries, and evicted stories take
 * their postings with them.
 */
const NAME_BOOST = 3;

export class TermIndex {
  private readonly postings = new Map<number, number | number[]>();
  private acc = new Float64Array(1024);
  private vals = new Float64Array(1024);

  constructor(
    private readonly vocab: Vocabulary,
    private readonly isLive: (slot: number) => boolean,
    private readonly postingCap = 512,
    private readonly postedPerStory = 64,
  ) {}

  /** Post `ids` for story `slot`; `posted` is the story's own list of posted ids (updated). */
  post(slot: number, posted: number[], ids: Int32Array): void {
    for (let i = 0; i < ids.length && posted.length < this.postedPerStory; i++) {
      const id = ids[i]!;
      if (posted.includes(id)) continue;
      posted.push(id);
      const cur = this.postings.get(id);
      if (cur === undefined) { this.postings.set(id, slot); continue; }
      const list = typeof cur === 'number' ? [cur] : cur;
      if (list !== cur) this.postings.set(id, list);
      list.push(slot);
      if (list.length > this.postingCap) {
        // Drop evicted stories first; if the term is still crowded keep only the newest half.
        let live = list.filter((x) => this.isLive(x));
        if (live.length > this.postingCap / 2) live = live.slice(live.length - this.postingCap / 2);
        this.postings.set(id, live);
      }
    }
  }

  /** Remove an evicted story so terms of past stories do not pile up. */
  unpost(slot: number, posted: readonly number[]): void {
    for (const id of posted) {
      const cur = this.postings.get(id);
      if (cur === undefined) continue;
      if (typeof cur === 'number') { if (cur === slot) this.postings.delete(id); continue; }
      const k = cur.indexOf(slot);
      if (k >= 0) cur.splice(k, 1);
      if (cur.length === 0) this.postings.delete(id);
      else if (cur.length === 1) this.postings.set(id, cur[0]!);
    }
  }

  /**
   * The postings as flat arrays with slots renumbered by `remap` (old slot -> new, -1: dropped),
   * each list in its order (which decides ties between candidates): terms, then per term its
   * slot count and slots.
   */
  exportPostings(remap: Int32Array): { terms: Int32Array; counts: Int32Array; slots: Int32Array } {
    const terms: number[] = [];
    const counts: number[] = [];
    const slots: number[] = [];
    for (const [term, cur] of this.postings) {
      const list = typeof cur === 'number' ? [cur] : cur;
      let n = 0;
      for (const x of list) {
        const to = x < remap.length ? remap[x]! : -1;
        if (to < 0) continue;
        slots.push(to);
        n++;
      }
      if (n === 0) continue;
      terms.push(term);
      counts.push(n);
    }
    return { terms: Int32Array.from(terms), counts: Int32Array.from(counts), slots: Int32Array.from(slots) };
  }

  /** Replaces the postings with exported ones (see `exportPostings`). */
  importPostings(p: { terms: Int32Array; counts: Int32Array; slots: Int32Array }): void {
    this.postings.clear();
    let k = 0;
    for (let i = 0; i < p.terms.length; i++) {
      const n = p.counts[i]!;
      this.postings.set(p.terms[i]!, n === 1 ? p.slots[k]! : Array.from(p.slots.subarray(k, k + n)));
      k += n;
    }
  }

  /** Live story slots sharing salient terms with the article, best IDF-weighted overlap first (at most `max`). */
  candidates(salient: Int32Array, slotCount: number, max: number): number[] {
    if (this.acc.length < slotCount) this.acc = new Float64Array(slotCount * 2);
    const acc = this.acc;
    const touched: number[] = [];
    const hit = (slot: number, w: number): void => {
      if (!this.isLive(slot)) return;
      if (acc[slot] === 0) touched.push(slot);
      acc[slot]! += w;
    };
    for (let i = 0; i < salient.length; i++) {
      const id = salient[i]!;
      const list = this.postings.get(id);
      if (list === undefined) continue;
      // names and places count three times: during a big event every report shares its common
      // words ("magnitude", "rescue", "killed") with every other quake's story, and the one
      // story of that city fell out of the candidates (the same quake was opened twice)
      const w = this.vocab.idf(id) * (this.vocab.nameTerms[id] === 1 ? NAME_BOOST : 1);
      if (typeof list === 'number') hit(list, w);
      else for (let k = list.length - 1; k >= 0; k--) hit(list[k]!, w);
    }
    let chosen = touched;
    if (touched.length > max) chosen = this.top(touched, max);
    for (const slot of touched) acc[slot] = 0;
    return chosen;
  }

  /**
   * The `max` touched slots of highest weight, highest first, ties in touched order: what a
   * stable sort of all of them would start with, without sorting thousands of slots by a
   * comparator (the cut-off comes from a numeric typed-array sort).
   */
  private top(touched: number[], max: number): number[] {
    const acc = this.acc;
    const n = touched.length;
    if (this.vals.length < n) this.vals = new Float64Array(n * 2);
    const vals = this.vals.subarray(0, n);
    for (let i = 0; i < n; i++) vals[i] = acc[touched[i]!]!;
    vals.sort();
    const cut = vals[n - max]!;
    const out: number[] = [];
    for (let i = 0; i < n; i++) if (acc[touched[i]!]! > cut) out.push(touched[i]!);
    for (let i = 0; i < n && out.length < max; i++) if (acc[touched[i]!]! === cut) out.push(touched[i]!);
    return out.sort((x, y) => acc[y]! - acc[x]!);
  }
}
