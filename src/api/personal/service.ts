import { endianness } from 'node:os';
import { storySignals } from '../../actors/store/stories.js';
import { describeError } from '../../runtime/errors.js';
import { silentLogger, type Logger } from '../../runtime/log.js';
import type { Sql } from '../../runtime/sql.js';
import { explainCursorScope, InvalidCursorError, type CursorCodec } from '../cursor.js';
import { feedScopes, type FeedQuery, type FeedService } from '../feed.js';
import { etagOf } from '../hot-cache.js';
import type { Profile } from '../readers/profile.js';
import { buildPool, POOL_MAX, type Candidate, type Pool } from './pool.js';
import { personalPagesInto } from './rank.js';

/** Which stories are breaking in an edition right now (the breaking detector provides it). */
export type BreakingStoryIds = (region: string) => Promise<ReadonlySet<string>>;

export interface PersonalFeedOptions {
  feed: FeedService;
  sql: Sql;
  codec: CursorCodec;
  authority: (publisher: string) => number | undefined;
  breaking?: BreakingStoryIds;
  now?: () => number;
  log?: Logger;
  /** how long a pool serves before it is rebuilt from the feed's current ranking (default 5 s) */
  poolTtlMs?: number;
  maxPerPublisher?: number;
  minCategoriesOnTop?: number;
}

/** A rendered personalised page. */
export interface PersonalPage {
  body: Buffer;
  etag: string;
}

const OPEN = Buffer.from('{"items":[');
const EMPTY = Buffer.alloc(0);
const CLOSE_NO_CURSOR = Buffer.from('],"next_cursor":null}');
const CLOSE_CURSOR = Buffer.from('],"next_cursor":"');
const CLOSE = Buffer.from('"}');

/**
 * A personalised cursor's signed text: the pool (snapshot) id, then the remaining order as
 * snapshot positions (little-endian uint16), base64url.
 */
const POOL_ID_LENGTH = 16;

const NO_BREAKING: ReadonlySet<string> = new Set();
/** a first page's order, and the items a page copies (scratch: a page is rendered synchronously, one at a time) */
const ORDER = new Uint16Array(POOL_MAX);
const ITEMS: Buffer[] = new Array<Buffer>(50).fill(Buffer.alloc(0));
/** order positions as little-endian uint16 straight from the array's memory (on big-endian machines, one by one) */
const LITTLE_ENDIAN = endianness() === 'LE';
/** pools kept by id for the cursors of recent pages */
const POOLS_BY_ID = 64;
/** pages the diversity rules fill on a personalised feed (further down, score order) */
const DIVERSE_PAGES = 3;

/**
 * `GET /v1/feed?for=me`: a reader's page re-ranked from the edition's current candidate pool
 * (pool.ts, rank.ts). With the pool and the profile in memory a page is computed synchronously
 * and reads nothing. The remaining order travels in the cursor (positions in the pool's
 * snapshot, signed), so later pages neither repeat nor skip whatever the reader clicks in
 * between, on any node: a node that does not hold the pool rebuilds it from the snapshot.
 */
export class PersonalFeed {
  private readonly current = new Map<string, { pool: Pool; at: number; building: Promise<Pool> | null }>();
  private readonly firstBuild = new Map<string, Promise<Pool>>();
  private readonly byId = new Map<string, Pool>();
  private readonly loadingById = new Map<string, Promise<Pool | null>>();
  private readonly now: () => number;
  private readonly log: Logger;
  private readonly ttl: number;

  constructor(private readonly o: PersonalFeedOptions) {
    this.now = o.now ?? Date.now;
    this.log = o.log ?? silentLogger;
    this.ttl = o.poolTtlMs ?? 5_000;
  }

  /**
   * The reader's page; synchronous when the pool is in memory. Throws InvalidCursorError.
   * `writtenAtOnce`: the caller writes a synchronously returned body before anything else runs
   * on the thread (a reply from the socket's own callback), so the body may live in a buffer the
   * next page reuses: no allocation per page. Pages returned in a promise always own their body.
   */
  page(profile: Profile, q: FeedQuery, writtenAtOnce = false): PersonalPage | Promise<PersonalPage> {
    const scope = `me:${q.region}:${q.category}:${profile.id}`;
    if (q.cursor !== null) {
      let text: string;
      try {
        text = this.o.codec.decodeText(scope, q.cursor);
      } catch (err) {
        // this reader's cursor of another edition or topic: say which
        throw explainCursorScope(err, this.o.codec, q.cursor, feedScopes('me:', `:${profile.id}`, ' (for=me)'));
      }
      if (text.length < POOL_ID_LENGTH) throw new InvalidCursorError('bad payload');
      const poolId = text.slice(0, POOL_ID_LENGTH);
      const order = decodeOrder(text.slice(POOL_ID_LENGTH));
      const pool = this.byId.get(poolId);
      if (pool !== undefined) return this.render(pool, profile, q, scope, order, order.length, false, writtenAtOnce);
      return this.poolById(poolId, q).then((p) => {
        if (p === null) throw new InvalidCursorError('expired');
        return this.render(p, profile, q, scope, order, order.length, false, false);
      });
    }
    const pool = this.pool(q.region, q.category);
    if (pool instanceof Promise) return pool.then((p) => this.first(p, profile, q, scope, false));
    return this.first(pool, profile, q, scope, writtenAtOnce);
  }

  /** The edition's pool: the one in memory (rebuilt in the background once stale), else built now. */
  pool(region: string, category: string): Pool | Promise<Pool> {
    const key = `${region}:${category}`;
    const e = this.current.get(key);
    if (e !== undefined && (e.building !== null || this.now() - e.at < this.ttl)) return e.pool;
    if (e === undefined) {
      let building = this.firstBuild.get(key);
      if (building === undefined) {
        building = this.build(region, category).finally(() => this.firstBuild.delete(key));
        this.firstBuild.set(key, building);
      }
      return building;
    }
    const entry = e;
    entry.building = this.build(region, category).then(
      (p) => p,
      (err: unknown) => {
        // keep serving the old pool; try again after another TTL
        this.log.warn({ err: describeError(err), region, category }, 'personal pool rebuild failed');
        entry.building = null;
        entry.at = this.now();
        return entry.pool;
      },
    );
    return entry.pool;
  }

  private first(pool: Pool, profile: Profile, q: FeedQuery, scope: string, transient: boolean): PersonalPage {
    const n = personalPagesInto(pool, profile, {
      pageSize: q.limit,
      maxPerPublisher: this.o.maxPerPublisher ?? 3,
      minCategories: q.category === 'top' ? (this.o.minCategoriesOnTop ?? 3) : 0,
      diversePages: DIVERSE_PAGES,
    }, ORDER);
    return this.render(pool, profile, q, scope, ORDER, n, true, transient);
  }

  /**
   * The page of order[0, n): its first q.limit candidates (pre-encoded items, copied), and a
   * cursor for the rest; `transient`: in the shared body buffer (see page()).
   */
  private render(pool: Pool, profile: Profile, q: FeedQuery, scope: string, order: Uint16Array, n: number, first: boolean, transient: boolean): PersonalPage {
    const hidden = first ? null : hiddenIn(pool, profile);
    const items = ITEMS;
    let count = 0;
    let size = OPEN.length + CLOSE_NO_CURSOR.length;
    let i = 0;
    for (; i < n && count < q.limit; i++) {
      const at = order[i]!;
      const c: Candidate | null | undefined = pool.candidates[at];
      if (c === null || c === undefined || (hidden !== null && hidden.has(at))) continue;
      const json = q.related ? c.json : c.bare;
      items[count++] = json;
      size += json.length + 1;
    }
    const next = i < n ? this.o.codec.encodeText(scope, pool.id + encodeOrder(order, i, n)) : null;
    if (next !== null) size += CLOSE_CURSOR.length + next.length + CLOSE.length;
    // one allocation, the pre-encoded items copied in: `{"items":[...],"next_cursor":...}`
    const body = transient ? sharedBody(size) : Buffer.allocUnsafe(size);
    let at = OPEN.copy(body, 0);
    for (let k = 0; k < count; k++) {
      if (k > 0) body[at++] = 0x2c; // ,
      at += items[k]!.copy(body, at);
      items[k] = EMPTY;
    }
    if (next === null) at += CLOSE_NO_CURSOR.copy(body, at);
    else {
      at += CLOSE_CURSOR.copy(body, at);
      at += body.write(next, at, 'latin1'); // cursor characters are ASCII
      at += CLOSE.copy(body, at);
    }
    const page = at === body.length ? body : body.subarray(0, at);
    // a first page is a function of the pool, the profile, the limit and related: no need to hash the body
    const etag = first ? `"me-${pool.id}-${pool.builtAt.toString(36)}-${profile.version.toString(36)}-${q.limit}${q.related ? 'r' : ''}"` : etagOf(page);
    return { body: page, etag };
  }

  private async build(region: string, category: string): Promise<Pool> {
    const key = `${region}:${category}`;
    const snap = await this.o.feed.snapshot(region, category);
    const pool = await this.assemble(snap.id, snap.ids, region);
    this.current.set(key, { pool, at: this.now(), building: null });
    return pool;
  }

  private async assemble(id: string, allIds: readonly string[], region: string): Promise<Pool> {
    const ids = allIds.slice(0, POOL_MAX);
    const [stories, signals, breaking] = await Promise.all([
      this.o.feed.stories(ids),
      storySignals(this.o.sql, ids),
      this.o.breaking ? this.o.breaking(region).catch(() => NO_BREAKING) : Promise.resolve(NO_BREAKING),
    ]);
    if (id.length !== POOL_ID_LENGTH || !/^[A-Za-z0-9_-]+$/.test(id)) throw new Error(`snapshot ids must be ${POOL_ID_LENGTH} base64url characters`);
    const pool = buildPool({ id, ids, stories, signals, authority: this.o.authority, breaking, now: this.now(), region });
    if (this.byId.size >= POOLS_BY_ID) this.byId.delete(this.byId.keys().next().value!);
    this.byId.set(id, pool);
    return pool;
  }

  /** A pool a cursor names that this node does not hold: rebuilt from the shared snapshot. */
  private poolById(id: string, q: FeedQuery): Promise<Pool | null> {
    let p = this.loadingById.get(id);
    if (p === undefined) {
      p = this.o.feed
        .snapshotIds(id)
        .then((ids) => (ids === null ? null : this.assemble(id, ids, q.region)))
        .finally(() => this.loadingById.delete(id));
      this.loadingById.set(id, p);
    }
    return p;
  }
}

/** the body buffer transient pages share (grown when a page needs more) */
let shared = Buffer.allocUnsafe(64 * 1024);
function sharedBody(size: number): Buffer {
  if (shared.length < size) shared = Buffer.allocUnsafe(Math.max(size, shared.length * 2));
  return shared.subarray(0, size);
}

/** Positions a reader hides now (later pages leave out what was hidden since the first). */
function hiddenIn(pool: Pool, profile: Profile): Set<number> | null {
  if (profile.hidden.length === 0) return null;
  const out = new Set<number>();
  for (const k of profile.hidden) {
    const post = pool.index.get(k);
    if (post) for (const at of post) out.add(at);
  }
  return out;
}

function encodeOrder(order: Uint16Array, from: number, to: number): string {
  if (LITTLE_ENDIAN) return Buffer.from(order.buffer, order.byteOffset + from * 2, (to - from) * 2).toString('base64url');
  const buf = Buffer.allocUnsafe((to - from) * 2);
  for (let i = from; i < to; i++) buf.writeUInt16LE(order[i]!, (i - from) * 2);
  return buf.toString('base64url');
}

function decodeOrder(s: string): Uint16Array {
  const buf = Buffer.from(s, 'base64url');
  if (buf.length % 2 !== 0 || buf.length > POOL_MAX * 2) throw new InvalidCursorError('bad order');
  const out = new Uint16Array(buf.length / 2);
  for (let i = 0; i < out.length; i++) {
    out[i] = buf.readUInt16LE(i * 2);
    if (out[i]! >= POOL_MAX) throw new InvalidCursorError('bad order');
  }
  return out;
}
