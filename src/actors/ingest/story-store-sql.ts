import type { FenceToken } from '../../runtime/fence.js';
import type { Sql } from '../../runtime/sql.js';
import { loadStorySnapshot, pageClusteredArticles, saveStorySnapshot } from '../store/story-snapshots.js';
import { clusteredArticlesSince, databaseNow } from '../store/stories.js';
import type { ClusteredArticle, StoryStore } from '../stories/story-cluster.js';

/** The story shard's key in `story_snapshots` (one story shard today). */
export const STORY_SHARD = 'story/0';

/** Rows per page of a replay read through a cursor. */
export const REPLAY_PAGE = 5_000;

/**
 * The StoryCluster actor's store in the database: stored articles to replay (a page at a time
 * in server mode; PGlite has one connection, which a cursor's transaction would hold) and the
 * clusterer's snapshots, written under the owner's fencing token when it has one.
 */
export function sqlStoryStore(sql: Sql, o: { fence?: FenceToken | null } = {}): StoryStore {
  const paged = sql.mode === 'postgres';
  return {
    loadSince: async (since, storedSince) => (await clusteredArticlesSince(sql, since, storedSince)) as ClusteredArticle[],
    now: () => databaseNow(sql),
    ...(paged
      ? { pageSince: (since: number, storedSince: number | undefined, onPage: (page: ClusteredArticle[]) => Promise<void>) => pageClusteredArticles(sql, since, storedSince, REPLAY_PAGE, (rows) => onPage(rows as ClusteredArticle[])) }
      : {}),
    loadSnapshot: () => loadStorySnapshot(sql, STORY_SHARD),
    saveSnapshot: async (chunks, meta) => (await saveStorySnapshot(sql, STORY_SHARD, chunks, meta, o.fence ?? null)) !== null,
  };
}
