/**
 * Exact dedup by `url_hash` in memory (`newsagg process`; a node asks its database): the same
 * canonical URL is the same article, whatever guid or headline the feed gives it this time. A
 * repeat is an *update* of the known article, never a new one. Entries whose first sighting is
 * older than the window go.
 */
export class UrlIndex<E extends { seenAt: number }> {
  private readonly map = new Map<string, E>();

  constructor(private readonly windowMs: number) {}

  get(urlHash: string): E | undefined {
    return this.map.get(urlHash);
  }

  set(urlHash: string, entry: E): void {
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
