/**
 * Exact dedup by `url_hash`: the same canonical URL is the same article, whatever guid or
 * headline the feed gives it this time. A repeat is an *update* of the stored article (it keeps
 * the first id and dedup decision), never a new article. Entries older than the window go.
 */
export interface UrlEntry {
  id: string;
  duplicateOf: string | null;
  simhash: string;
  /** ms since epoch of the first sighting, for expiry */
  seenAt: number;
}

export class UrlIndex {
  private readonly map = new Map<string, UrlEntry>();

  constructor(private readonly windowMs: number) {}

  get(urlHash: string): UrlEntry | undefined {
    return this.map.get(urlHash);
  }

  set(urlHash: string, entry: UrlEntry): void {
    this.map.set(urlHash, entry);
  }

  get size(): number {
    return this.map.size;
  }

  /** Forgets URLs first seen before `now - window` (Map iterates in insertion order). */
  expire(now: number): number {
    const cutoff = now - this.windowMs;
    let n = 0;
    for (const [k, e] of this.map) {
      if (e.seenAt >= cutoff) continue;
      this.map.delete(k);
      n++;
    }
    return n;
  }
}
