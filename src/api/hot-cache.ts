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
  /** invalidations per scope, and of everything: a page rendered across one is not kept */
  private generations = new Map<string, number>();
  private epoch = 0;

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

  /**
   * Taken before rendering a page of `scope`; `set` with it keeps the page only if no
   * invalidation of the scope came in between (else a page built from the data just replaced
   * would be served for a whole TTL).
   */
  token(scope: string): string {
    return `${this.epoch}:${this.generations.get(scope) ?? 0}`;
  }

  set(key: string, scope: string, body: string | Buffer, token?: string): HotEntry {
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const e = { body: bytes, etag: etagOf(bytes), at: this.now(), scope };
    if (token !== undefined && token !== this.token(scope)) return e;
    if (this.entries.size >= this.max) {
      // drop the oldest tenth; Map iteration order is insertion order
      let n = Math.ceil(this.max / 10);
      for (const k of this.entries.keys()) {
        this.entries.delete(k);
        if (--n === 0) break;
      }
    }
    this.entries.set(key, e);
    return e;
  }

  invalidate(scopes: Iterable<string>): void {
    const set = new Set(scopes);
    for (const scope of set) this.generations.set(scope, (this.generations.get(scope) ?? 0) + 1);
    for (const [k, e] of this.entries) if (set.has(e.scope)) this.entries.delete(k);
  }

  clear(): void {
    this.epoch++;
    this.generations.clear();
    this.entries.clear();
  }
}

export function etagOf(body: string | Uint8Array): string {
  return `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;
}
