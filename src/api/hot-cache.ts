import { createHash } from 'node:crypto';

export interface HotEntry {
  /** the rendered response, UTF-8 encoded once so every reply writes the same bytes */
  body: Buffer;
  etag: string;
  at: number;
}

/**
 * Rendered responses kept in process for a few seconds, so a popular page costs no network
 * round trip. Entries are grouped by scope (a feed key) and dropped when an invalidation event
 * names the scope; the TTL heals a lost event by itself.
 */
export class HotCache {
  private entries = new Map<string, HotEntry & { scope: string }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly max = 5_000,
  ) {}

  get(key: string): HotEntry | null {
    const e = this.entries.get(key);
    if (!e) return null;
    if (this.now() - e.at > this.ttlMs) {
      this.entries.delete(key);
      return null;
    }
    return e;
  }

  set(key: string, scope: string, body: string | Buffer): HotEntry {
    if (this.entries.size >= this.max) {
      // drop the oldest tenth; Map iteration order is insertion order
      let n = Math.ceil(this.max / 10);
      for (const k of this.entries.keys()) {
        this.entries.delete(k);
        if (--n === 0) break;
      }
    }
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const e = { body: bytes, etag: etagOf(bytes), at: this.now(), scope };
    this.entries.set(key, e);
    return e;
  }

  invalidate(scopes: Iterable<string>): void {
    const set = new Set(scopes);
    for (const [k, e] of this.entries) if (set.has(e.scope)) this.entries.delete(k);
  }

  clear(): void {
    this.entries.clear();
  }
}

export function etagOf(body: string | Uint8Array): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}
