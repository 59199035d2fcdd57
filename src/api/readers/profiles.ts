import { readStories } from '../../actors/store/reader-lists.js';
import { forgetReader, loadReader, loadReaders, saveInterests, type StoredReader } from '../../actors/store/readers.js';
import type { Cache } from '../../runtime/cache.js';
import { describeError } from '../../runtime/errors.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Sql } from '../../runtime/sql.js';
import { storedInterests, type Interests } from './interests.js';
import { compileInterests, type Profile } from './profile.js';

/** What `/v1/me` shows of a reader. */
export interface ReaderView {
  reader_id: string;
  follow: Interests['follow'];
  hide: Interests['hide'];
  history_size: number;
}

/** profiles loaded per query */
const BATCH = 200;
/** stories read a profile remembers (the newest): enough to hide them from a pool of 300 candidates */
const READ_KEPT = 200;

/** Readers whose profile changed (interests set, a click, forgotten), one id per message. */
export const READERS_CHANNEL = 'newsagg:readers';

export interface ProfilesOptions {
  sql: Sql;
  cache: Cache;
  log?: Logger;
  /** profiles kept in memory (default 200,000) */
  max?: number;
}

/**
 * Reader profiles, compiled and kept in memory so a personalised page reads no database: a
 * profile is loaded from SQL on first use (concurrent requests share the load, and the misses of
 * one turn of the event loop are loaded by one query) and dropped when
 * any node announces a change to it on READERS_CHANNEL. Bounded: past `max`, the profiles loaded
 * longest ago go first.
 */
export class Profiles {
  private readonly byId = new Map<string, Profile>();
  private readonly loading = new Map<string, Promise<Profile>>();
  /** ids dropped while a load was in flight: that load's result is not kept */
  private generation = 0;
  private readonly max: number;
  private readonly log: Logger;
  /** misses waiting for the next batched load (one query for all ids asked for in one turn of the loop) */
  private batch: { id: string; resolve: (s: StoredReader) => void; reject: (e: unknown) => void }[] = [];
  private unsubscribe: (() => Promise<void>) | null = null;
  private offGap: (() => void) | null = null;

  constructor(private readonly o: ProfilesOptions) {
    this.max = o.max ?? 200_000;
    this.log = o.log ?? silentLogger;
  }

  async start(): Promise<void> {
    try {
      this.unsubscribe = await this.o.cache.subscribe(READERS_CHANNEL, (id) => this.drop(id));
      // changes announced while the events' link was away were missed: every profile is reloaded
      this.offGap = this.o.cache.onGap?.(() => this.dropAll()) ?? null;
    } catch (err) {
      // without events a node still sees its own changes; another node's show after a reload
      this.log.warn({ err: describeError(err) }, 'reader change subscription failed');
    }
  }

  async stop(): Promise<void> {
    this.offGap?.();
    await this.unsubscribe?.().catch(() => {});
  }

  get size(): number {
    return this.byId.size;
  }

  /** The reader's profile: synchronously when in memory, else loaded. */
  get(id: string): Profile | Promise<Profile> {
    const p = this.byId.get(id);
    if (p !== undefined) return p;
    let pending = this.loading.get(id);
    if (pending === undefined) {
      const gen = this.generation;
      const settle = () => {
        if (this.loading.get(id) === pending) this.loading.delete(id);
      };
      pending = this.fetch(id).then(
        (stored) => {
          settle();
          const profile = compileInterests(id, storedInterests(stored.follow, stored.hide), stored.history, stored.read);
          if (gen === this.generation) this.keep(profile);
          return profile;
        },
        (err: unknown) => {
          settle();
          throw err;
        },
      );
      this.loading.set(id, pending);
    }
    return pending;
  }

  /** A stored reader, loaded in a batch with the other misses of this turn of the event loop. */
  private fetch(id: string): Promise<StoredReader> {
    return new Promise((resolve, reject) => {
      if (this.batch.length === 0) setImmediate(() => this.flush());
      this.batch.push({ id, resolve, reject });
    });
  }

  private flush(): void {
    const all = this.batch;
    this.batch = [];
    for (let i = 0; i < all.length; i += BATCH) {
      const part = all.slice(i, i + BATCH);
      const ids = part.map((p) => p.id);
      Promise.all([loadReaders(this.o.sql, ids), readStories(this.o.sql, ids, READ_KEPT)]).then(
        ([found, read]) => {
          for (const p of part) p.resolve({ ...(found.get(p.id) ?? { follow: null, hide: null, history: [], history_size: 0 }), read: read.get(p.id) ?? [] });
        },
        (err: unknown) => {
          for (const p of part) p.reject(err);
        },
      );
    }
  }

  /** The reader as `/v1/me` shows it, read from the database (the interests are not kept in memory). */
  async describe(id: string): Promise<ReaderView> {
    const stored = await loadReader(this.o.sql, id);
    const interests = storedInterests(stored.follow, stored.hide);
    return { reader_id: id, follow: interests.follow, hide: interests.hide, history_size: stored.history_size };
  }

  /** Replaces the reader's interests. */
  async setInterests(id: string, interests: Interests): Promise<ReaderView> {
    await saveInterests(this.o.sql, id, interests.follow, interests.hide);
    await this.changed(id);
    return this.describe(id);
  }

  /** Forgets the reader and its history everywhere. */
  async forget(id: string): Promise<boolean> {
    const had = await forgetReader(this.o.sql, id);
    await this.changed(id);
    return had;
  }

  /** The reader's history grew (a click was recorded): every node reloads it on next use. */
  async changed(id: string): Promise<void> {
    this.drop(id);
    try {
      await this.o.cache.publish(READERS_CHANNEL, id);
    } catch (err) {
      this.log.warn({ err: describeError(err) }, 'reader change not announced');
    }
  }

  /** Forgets every profile held (and any load in flight), so each is read again from the database. */
  dropAll(): void {
    const n = this.byId.size;
    this.byId.clear();
    if (this.loading.size > 0) {
      this.loading.clear();
      this.generation++;
    }
    if (n > 0) this.log.info({ profiles: n }, 'reader profiles dropped: changes may have been missed while events were away');
  }

  private drop(id: string): void {
    this.byId.delete(id);
    if (this.loading.has(id)) {
      this.loading.delete(id);
      this.generation++;
    }
  }

  private keep(p: Profile): void {
    if (this.byId.size >= this.max) {
      let n = Math.ceil(this.max / 10);
      for (const k of this.byId.keys()) {
        this.byId.delete(k);
        if (--n === 0) break;
      }
    }
    this.byId.set(p.id, p);
  }
}
