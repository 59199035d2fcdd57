import { workerData } from 'node:worker_threads';
import type { FenceToken } from '../../runtime/fence.js';
import { openSql } from '../../runtime/sql.js';
import { AuthorityTable } from '../store/authority.js';
import { storyClusterBehaviour } from '../stories/story-cluster.js';
import { sqlStoryStore } from './story-store-sql.js';

/**
 * The StoryCluster behaviour as a worker-hosted module (story-owner.ts): the shard's state is
 * built in this thread (its snapshot loaded, the tail replayed a page at a time), so the node's
 * own thread keeps sending heartbeats and renewing leases however long that takes. It reads
 * PostgreSQL through a pool of its own; `workerData` carries the URL, the window, the snapshot
 * period and the owner's fencing token (a snapshot of a deposed owner is refused).
 */
export interface StoryWorkerData {
  databaseUrl: string;
  windowMs: number;
  snapshotMs?: number;
  fence: FenceToken | null;
}

const data = workerData as StoryWorkerData;
const sql = await openSql({ databaseUrl: data.databaseUrl, dataDir: '', poolSize: 3 });
// source authority feeds the lead choice, as on the node's own thread
const authority = new AuthorityTable(sql);
await authority.load().catch(() => undefined);
setInterval(() => void authority.load().catch(() => undefined), 10 * 60_000).unref();

export default storyClusterBehaviour({
  store: sqlStoryStore(sql, { fence: data.fence }),
  clusterer: { windowMs: data.windowMs, lead: { authority: authority.get } },
  ...(data.snapshotMs !== undefined ? { snapshotEveryMs: data.snapshotMs } : {}),
});
