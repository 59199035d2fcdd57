import { checkFences, type FenceToken } from '../../runtime/fence.js';
import type { Sql } from '../../runtime/sql.js';
import type { ReplayedArticle } from './stories.js';

/**
 * Story clusterer snapshots (migration 41): the story owner's state in chunks, with the
 * watermark a successor replays the articles from (those stored at or after it). A snapshot
 * counts once it is complete; an owner deposed since (its fence raised by a successor) cannot
 * complete one. The two latest complete snapshots of a shard are kept.
 */
export interface StoredStorySnapshot {
  id: number;
  /** the store's clock (ms): articles stored at or after it may be missing from the snapshot */
  watermark: number;
  takenAt: number;
  chunks: Buffer[];
  bytes: number;
  stories: number;
  articles: number;
}

export interface StorySnapshotMeta {
  watermark: number;
  stories: number;
  articles: number;
}

const KEEP = 2;

/** Writes a snapshot; returns its id, or null when a fence above `fence` refused it (a successor owns the shard). */
export async function saveStorySnapshot(sql: Sql, shard: string, chunks: readonly Buffer[], meta: StorySnapshotMeta, fence: FenceToken | null): Promise<number | null> {
  const bytes = chunks.reduce((n, c) => n + c.length, 0);
  const { rows } = await sql.query<{ id: string }>(
    'INSERT INTO story_snapshots (shard, watermark, chunks, bytes, stories, articles) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::text',
    [shard, new Date(meta.watermark).toISOString(), chunks.length, bytes, meta.stories, meta.articles],
  );
  const id = Number(rows[0]!.id);
  try {
    // one chunk per statement: each travels as a parameter of its own
    for (let seq = 0; seq < chunks.length; seq++) await sql.query('INSERT INTO story_snapshot_chunks (snapshot_id, seq, data) VALUES ($1, $2, $3)', [id, seq, chunks[seq]]);
    const done = await sql.tx(async (q) => {
      try {
        if (fence) await checkFences(q, [fence]);
      } catch (err) {
        if ((err as { code?: string }).code === 'FENCED_OFF') return false;
        throw err;
      }
      await q.query('UPDATE story_snapshots SET complete = true WHERE id = $1', [id]);
      return true;
    });
    if (!done) {
      await sql.query('DELETE FROM story_snapshots WHERE id = $1', [id]);
      return null;
    }
  } catch (err) {
    await sql.query('DELETE FROM story_snapshots WHERE id = $1', [id]).catch(() => undefined);
    throw err;
  }
  // older ones go (and unfinished ones a dead owner left behind)
  await sql.query(
    `DELETE FROM story_snapshots WHERE shard = $1 AND id < $2 AND (NOT complete OR id NOT IN (SELECT id FROM story_snapshots WHERE shard = $1 AND complete ORDER BY id DESC LIMIT ${KEEP}))`,
    [shard, id],
  );
  return id;
}

/** The latest complete snapshot of a shard, or null. */
export async function loadStorySnapshot(sql: Sql, shard: string): Promise<StoredStorySnapshot | null> {
  const { rows } = await sql.query<{ id: string; watermark_ms: string; taken_ms: string; chunks: number; bytes: string; stories: number; articles: number }>(
    `SELECT id::text, (extract(epoch FROM watermark) * 1000)::bigint::text AS watermark_ms, (extract(epoch FROM taken_at) * 1000)::bigint::text AS taken_ms,
            chunks, bytes::text, stories, articles
       FROM story_snapshots WHERE shard = $1 AND complete ORDER BY id DESC LIMIT 1`,
    [shard],
  );
  const h = rows[0];
  if (!h) return null;
  const id = Number(h.id);
  const chunks: Buffer[] = [];
  // a chunk at a time: a single result of hundreds of MB would be held twice while it is parsed
  for (let seq = 0; seq < h.chunks; seq++) {
    // as base64 (decoded natively): the driver's parser of bytea's hex text goes a character at a time
    const r = await sql.query<{ data: string }>(`SELECT encode(data, 'base64') AS data FROM story_snapshot_chunks WHERE snapshot_id = $1 AND seq = $2`, [id, seq]);
    // removed meanwhile (a newer one completed and this one was pruned): the caller reads again
    if (!r.rows[0]) throw new Error(`story snapshot ${id} lost its chunk ${seq} while being read`);
    chunks.push(Buffer.from(r.rows[0].data, 'base64'));
  }
  return { id, watermark: Number(h.watermark_ms), takenAt: Number(h.taken_ms), chunks, bytes: Number(h.bytes), stories: h.stories, articles: h.articles };
}

/**
 * The clustered articles published since `since` (stored at or after `storedSince` when given),
 * in the order they were decided (as `clusteredArticlesSince`), handed to `onPage` a page at a
 * time through a cursor: one sort, and memory for one page whatever the window holds.
 */
export async function pageClusteredArticles(sql: Sql, since: number, storedSince: number | undefined, pageSize: number, onPage: (rows: ReplayedArticle[]) => Promise<void> | void): Promise<number> {
  let total = 0;
  await sql.tx(async (q) => {
    await q.query(
      `DECLARE story_replay NO SCROLL CURSOR FOR
       SELECT a.id, a.url, a.title, a.snippet, a.publisher_id, (extract(epoch FROM a.published_at) * 1000)::bigint::text AS published_ms,
              a.language, a.duplicate_of, a.story_id, a.category, a.region, a.entities, a.places
         FROM articles a LEFT JOIN fingerprints f ON f.article_id = a.id
        WHERE a.published_at >= $1 AND a.story_id IS NOT NULL AND ($2::timestamptz IS NULL OR a.ingested_at >= $2)
        ORDER BY a.ingested_at, f.handle NULLS LAST, a.id`,
      [new Date(since).toISOString(), storedSince === undefined ? null : new Date(storedSince).toISOString()],
    );
    for (;;) {
      const { rows } = await q.query<{
        id: string; url: string; title: string; snippet: string | null; publisher_id: string; published_ms: string; language: string | null;
        duplicate_of: string | null; story_id: string; category: string | null; region: string | null; entities: unknown[]; places: string[];
      }>(`FETCH ${Math.max(1, Math.floor(pageSize))} FROM story_replay`);
      if (rows.length === 0) break;
      total += rows.length;
      await onPage(rows.map((r) => ({
        article: {
          id: r.id, url: r.url, title: r.title, summary: r.snippet, publisher: r.publisher_id, published_at: Number(r.published_ms),
          language: r.language, duplicate_of: r.duplicate_of,
        },
        hints: {
          entities: Array.isArray(r.entities) ? r.entities : [],
          places: Array.isArray(r.places) ? r.places : [],
          ...(r.category ? { category: r.category } : {}),
          ...(r.region ? { region: r.region } : {}),
        },
        story_id: r.story_id,
      })));
    }
    await q.query('CLOSE story_replay');
  });
  return total;
}
