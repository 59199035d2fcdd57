import { getPublishers, loadPublisherState, savePublisherState, type PublisherStatusColumns as StatusColumns } from '../store/publishers.js';
import { checkFences, FencedOffError, type FenceToken } from '../../runtime/fence.js';
import type { Logger } from '../../runtime/log.js';
import type { Sql } from '../../runtime/sql.js';
import { DEFAULT_POLICY, type PolicyConfig } from './policy.js';
import { newPublisher, toStored, type PublisherState, type PublisherStore } from './state.js';

/**
 * PublisherStore on the `publishers` table: the actor's state is the row's `state` jsonb, and
 * the status columns the admin API lists (next poll, failures, circuit and why, counts, WebSub)
 * are written from it in the same UPDATE. A row added by import or the admin API has no state
 * yet (`{}`): it loads as a fresh publisher for the row's feed, so it starts polling by itself.
 *
 * In a cluster (`fencing`) a save carries the fencing token of this node's ownership of the
 * publisher's shard and is checked against the shard's fence in its transaction (fence.ts): the
 * state of a publisher whose shard this node no longer owns is not written (its new owner loaded
 * the row and keeps its own state; what this node fetched since was appended to the ingest log,
 * and a repeat of it is stored once).
 */
export class SqlPublisherStore implements PublisherStore {
  constructor(
    private readonly sql: Sql,
    private readonly now: () => number,
    private readonly random: () => number,
    private readonly policy: PolicyConfig = DEFAULT_POLICY,
    private readonly fencing?: { tokenOf(id: string): FenceToken | null; log: Logger },
  ) {}

  async load(id: string): Promise<PublisherState | null> {
    const state = await loadPublisherState(this.sql, id);
    if (state && isPublisherState(state)) return state;
    const [row] = await getPublishers(this.sql, [id]);
    if (!row) return null;
    const fresh = newPublisher(id, { url: row.feed_url, name: row.name, category: row.category, country: row.country }, this.now(), this.random, this.policy);
    return toStored(fresh);
  }

  async save(state: PublisherState): Promise<void> {
    const write = (q: Sql) => savePublisherState(q, state.id, state as unknown as Record<string, unknown>, statusColumns(state));
    if (!this.fencing) return write(this.sql);
    const token = this.fencing.tokenOf(state.id);
    const refused = () => this.fencing!.log.info({ publisher_id: state.id }, 'publisher state not written: its shard has moved to another node, which keeps its own');
    if (!token) return refused();
    try {
      await this.sql.tx(async (q) => {
        await checkFences(q, [token]);
        await write(q);
      });
    } catch (err) {
      if (!(err instanceof FencedOffError)) throw err;
      refused();
    }
  }
}

/** A persisted state we can resume from (anything else, e.g. `{}`, starts afresh). */
export function isPublisherState(s: Record<string, unknown>): s is Record<string, unknown> & PublisherState {
  return typeof s['id'] === 'string' && typeof s['url'] === 'string' && typeof s['tier'] === 'number' && typeof s['nextPollAt'] === 'number' && typeof s['seen'] === 'string';
}

export function statusColumns(s: PublisherState): StatusColumns {
  return {
    name: s.name,
    etag: s.etag,
    last_modified: s.lastModified,
    next_poll_at: s.nextPollAt,
    last_polled_at: s.lastPollAt,
    last_success_at: s.lastSuccessAt,
    consecutive_failures: s.failures,
    circuit: s.circuit === 'half-open' ? 'half_open' : s.circuit,
    circuit_reason: s.lastError,
    fetch_count: s.polls,
    not_modified_count: s.notModified,
    error_count: s.errors ?? 0,
    article_count: s.newEntries,
    poll_interval_seconds: s.intervalMs / 1000,
    websub_hub: s.websub?.hub ?? null,
    websub_lease_expires_at: s.websub && s.websub.leaseExpiresAt > 0 ? s.websub.leaseExpiresAt : null,
  };
}
