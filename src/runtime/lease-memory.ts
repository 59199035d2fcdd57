import { monotonicClock, type Clock } from './clock.js';
import type { LeaseStore } from './lease.js';

/**
 * An in-process lease store (embedded mode, tests): keys expire TTL after their last write on
 * the given clock, with the same create/renew/take-over/release rules as the KV bucket.
 * `expires: false` keeps keys until they are deleted, like a server that fails to apply its max
 * age (tests of the take-over of a gone holder's key).
 */
export class MemoryLeaseStore implements LeaseStore {
  readonly name = 'memory';
  readonly generation = Date.now();
  private readonly keys = new Map<string, { holder: string; revision: number; writtenAt: number }>();
  private seq = 0;
  private readonly expires: boolean;

  constructor(
    readonly ttlMs: number,
    private readonly clock: Clock = monotonicClock,
    opts: { expires?: boolean } = {},
  ) {
    this.expires = opts.expires ?? true;
  }

  async create(key: string, holder: string): Promise<number | null> {
    if (this.live(key)) return null;
    return this.write(key, holder);
  }

  async renew(key: string, holder: string, revision: number): Promise<number | null> {
    return this.takeOver(key, holder, revision);
  }

  async takeOver(key: string, holder: string, revision: number): Promise<number | null> {
    const cur = this.live(key);
    if (!cur || cur.revision !== revision) return null;
    return this.write(key, holder);
  }

  async release(key: string, revision: number): Promise<void> {
    if (this.live(key)?.revision === revision) this.keys.delete(key);
  }

  async read(key: string): Promise<{ holder: string; revision: number } | null> {
    const cur = this.live(key);
    return cur ? { holder: cur.holder, revision: cur.revision } : null;
  }

  private live(key: string) {
    const cur = this.keys.get(key);
    if (cur && this.expires && this.clock.now() - cur.writtenAt >= this.ttlMs) {
      this.keys.delete(key);
      return undefined;
    }
    return cur;
  }

  private write(key: string, holder: string): number {
    const revision = ++this.seq;
    this.keys.set(key, { holder, revision, writtenAt: this.clock.now() });
    return revision;
  }
}
