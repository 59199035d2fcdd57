import { NewsaggError } from './errors.js';
import type { Sql } from './sql.js';

/**
 * Fencing tokens: a lease says who owns a shard *now*, but an owner that was paused, cut off or
 * slow may act on a decision it made while it still held the lease, after a successor took over.
 * Each acquisition of a shard's lease gets a token that orders after every earlier acquisition of
 * it (the lease store's revision of the acquiring write, within a generation of the store: a
 * store made anew starts a later generation). A new owner *raises* the shard's fence to its token
 * in the database before it rebuilds the shard from the database, and a write that carries
 * decisions of a shard owner checks, in its own transaction, that no fence is above the token it
 * carries; a refused write (`FencedOffError`) is decided again by the new owner.
 *
 * Why a refused write is never missed by the new owner and an accepted one never either: the
 * check takes a share lock on the fence row until its transaction ends, and the raise updates
 * that row. A write that checked before the raise commits before the raise does (the raise waits
 * for its lock), so the new owner's rebuild, which reads after the raise, sees it; a write that
 * checks after the raise sees the new fence and is refused.
 */
export interface FenceToken {
  /** the lease: `<store name>/<key>` (two deployments on one database keep apart) */
  key: string;
  /** the lease store's generation (its creation instant, ms) */
  gen: number;
  /** the store's revision of the acquiring write */
  rev: number;
}

/** An answer from a shard owner with the token under which it gave it. */
export class Fenced<T> {
  constructor(
    readonly value: T,
    readonly fence: FenceToken | null,
  ) {}
}

/** The value of an answer and its token (null for an answer that carries none: a local one, embedded mode). */
export function unfence<T>(answer: T | Fenced<T>): [T, FenceToken | null] {
  return answer instanceof Fenced ? [answer.value as T, answer.fence] : [answer, null];
}

/** a before b (a older) */
export function olderThan(a: Pick<FenceToken, 'gen' | 'rev'>, b: Pick<FenceToken, 'gen' | 'rev'>): boolean {
  return a.gen < b.gen || (a.gen === b.gen && a.rev < b.rev);
}

/** A write carried decisions of a shard owner that has been deposed since: decide again. */
export class FencedOffError extends NewsaggError {
  /** not the data's fault: the work is redone (the ingest log redelivers it) */
  readonly transient = true;
  constructor(key: string, token: FenceToken, current: Pick<FenceToken, 'gen' | 'rev'>) {
    super('FENCED_OFF', `decisions of a former owner of ${key} (token ${token.gen}/${token.rev}, fence now ${current.gen}/${current.rev}) are refused: decided again`);
  }
}

/** The table (a news migration creates it; the runtime only reads and raises rows). */
export const SHARD_FENCES_DDL = `
CREATE TABLE IF NOT EXISTS shard_fences (
  key text PRIMARY KEY,
  gen bigint NOT NULL,
  rev bigint NOT NULL,
  raised_at timestamptz NOT NULL DEFAULT now()
);
`;

/** Where a new owner raises a shard's fence (ShardOwnership calls it before the rebuild). */
export interface ShardFences {
  raise(token: FenceToken): Promise<void>;
}

/** Fences in PostgreSQL (`shard_fences`). */
export class SqlShardFences implements ShardFences {
  constructor(private readonly sql: Sql) {}

  /** the fence goes up to `token`, never down (a raise that arrives late changes nothing) */
  async raise(t: FenceToken): Promise<void> {
    await this.sql.query(
      `INSERT INTO shard_fences (key, gen, rev) VALUES ($1, $2, $3)
       ON CONFLICT (key) DO UPDATE SET gen = excluded.gen, rev = excluded.rev, raised_at = now()
       WHERE (shard_fences.gen, shard_fences.rev) < (excluded.gen, excluded.rev)`,
      [t.key, t.gen, t.rev],
    );
  }
}

/**
 * In a write transaction: refuses (FencedOffError) when a fence is above a token the write
 * carries, and holds the fence rows shared until the transaction ends (see above). A token for a
 * fence never raised passes.
 */
export async function checkFences(q: Sql, tokens: readonly FenceToken[]): Promise<void> {
  if (tokens.length === 0) return;
  const keys = [...new Set(tokens.map((t) => t.key))].sort();
  const { rows } = await q.query<{ key: string; gen: number; rev: number }>(
    'SELECT key, gen::float8 AS gen, rev::float8 AS rev FROM shard_fences WHERE key = ANY($1::text[]) ORDER BY key FOR SHARE',
    [keys],
  );
  const fences = new Map(rows.map((r) => [r.key, r]));
  for (const t of tokens) {
    const f = fences.get(t.key);
    if (f && olderThan(t, f)) throw new FencedOffError(t.key, t, f);
  }
}
