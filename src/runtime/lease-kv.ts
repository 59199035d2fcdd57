import type { KV, NatsConnection } from 'nats';
import { StorageType } from 'nats';
import type { LeaseStore } from './lease.js';

/** JetStream's "wrong last sequence": the compare-and-set lost. */
const WRONG_LAST_SEQUENCE = 10071;

export interface KvLeaseStoreOptions {
  /** bucket name (letters, digits, `-`, `_`) */
  bucket: string;
  /** TTL for a new bucket; an existing bucket keeps its own, and that one is used */
  ttlMs: number;
  /** bucket replicas (a NATS cluster: 3, so leases survive a server) */
  replicas?: number;
  /** how long one write may take before it counts as failed */
  timeoutMs?: number;
}

/**
 * Leases in a JetStream KV bucket: one key per lease, history 1, `max_age` = TTL so the server
 * deletes a key TTL after its last write; creates, renewals and take-overs are compare-and-set on
 * the key's last sequence (`Nats-Expected-Last-Subject-Sequence`). A bucket without a max age
 * (made by hand) keeps keys until deleted: the TTL given here is then the one nodes reason with,
 * and a gone holder's key is taken over (lease.ts). File storage on purpose: a lease must
 * not vanish early when the server restarts, or a successor could take a key whose holder still
 * counts on it (see the timing argument in `lease.ts`).
 */
export class KvLeaseStore implements LeaseStore {
  private readonly enc = new TextEncoder();
  private readonly dec = new TextDecoder();

  private constructor(
    private readonly kv: KV,
    readonly ttlMs: number,
    readonly name: string,
    readonly generation: number,
  ) {}

  static async open(nc: NatsConnection, opts: KvLeaseStoreOptions): Promise<KvLeaseStore> {
    const js = nc.jetstream({ timeout: opts.timeoutMs ?? Math.max(200, Math.floor(opts.ttlMs / 6)) });
    const kv = await js.views.kv(opts.bucket, { ttl: opts.ttlMs, history: 1, storage: StorageType.File, replicas: opts.replicas ?? 1 });
    // an existing bucket's TTL rules: every node must reason with the TTL the server applies
    const status = await kv.status();
    const ttlMs = status.ttl > 0 ? status.ttl : opts.ttlMs;
    // a bucket made anew (NATS store lost) restarts its revisions: its fencing tokens count after the old ones
    const created = Date.parse(status.streamInfo?.created ?? '');
    return new KvLeaseStore(kv, ttlMs, opts.bucket, Number.isFinite(created) ? created : 0);
  }

  async create(key: string, holder: string): Promise<number | null> {
    try {
      return await this.kv.create(key, this.enc.encode(holder));
    } catch (err) {
      if (casLost(err)) return null;
      throw err;
    }
  }

  async renew(key: string, holder: string, revision: number): Promise<number | null> {
    try {
      return await this.kv.update(key, this.enc.encode(holder), revision);
    } catch (err) {
      if (casLost(err)) return null;
      throw err;
    }
  }

  async takeOver(key: string, holder: string, revision: number): Promise<number | null> {
    return this.renew(key, holder, revision);
  }

  async release(key: string, revision: number): Promise<void> {
    try {
      await this.kv.delete(key, { previousSeq: revision });
    } catch (err) {
      if (!casLost(err)) throw err;
    }
  }

  async read(key: string): Promise<{ holder: string; revision: number } | null> {
    const e = await this.kv.get(key);
    if (!e || e.operation !== 'PUT') return null;
    return { holder: this.dec.decode(e.value), revision: e.revision };
  }
}

function casLost(err: unknown): boolean {
  return (err as { api_error?: { err_code?: number } })?.api_error?.err_code === WRONG_LAST_SEQUENCE;
}
