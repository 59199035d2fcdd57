import type { Address, Message } from '../../runtime/actor.js';
import type { ReplyFn } from '../../runtime/envelope.js';
import { ActorUnavailableError } from '../../runtime/errors.js';
import type { FenceToken } from '../../runtime/fence.js';
import type { Logger } from '../../runtime/log.js';
import { siblingModule } from '../../runtime/module-url.js';
import type { ShardHost } from '../../runtime/ownership.js';
import type { Route } from '../../runtime/system.js';
import { WorkerGroup } from '../../runtime/worker-group.js';
import type { StoryClusterMsg } from '../stories/story-cluster.js';
import type { StoryWorkerData } from './story-cluster-worker.js';

/**
 * The story shard on the node owning it, in a worker thread of its own (a cluster in server
 * mode): acquired, the worker starts and the StoryCluster actor there builds its state (the
 * latest snapshot and the articles stored since, or the whole window when there is none) while
 * this thread goes on with heartbeats and lease renewals; ready once the actor answers. Let go,
 * the worker ends and its memory with it. It is the local route of `story-cluster/0`.
 */
export class StoryOwner implements ShardHost, Route {
  private group: WorkerGroup | null = null;

  constructor(
    private readonly o: {
      databaseUrl: string;
      windowMs: number;
      snapshotMs?: number;
      log: Logger;
      /** the owner's fencing token for the story shard now */
      fence: () => FenceToken | null;
      /** the address the clusterer answers at */
      address: Address;
    },
  ) {}

  async acquired(): Promise<void> {
    const started = Date.now();
    const workerData: StoryWorkerData = { databaseUrl: this.o.databaseUrl, windowMs: this.o.windowMs, fence: this.o.fence(), ...(this.o.snapshotMs !== undefined ? { snapshotMs: this.o.snapshotMs } : {}) };
    const group = new WorkerGroup({ name: 'story', kinds: { 'story-cluster': siblingModule(import.meta.url, './story-cluster-worker.js').filename }, workerData, log: this.o.log });
    this.group = group;
    try {
      // the actor builds its state in `init`, on its first message
      await new Promise<void>((resolve, reject) => group.deliver(this.o.address, ({ type: 'get', story_id: '' } satisfies StoryClusterMsg) as Message, (err) => (err ? reject(err) : resolve())));
    } catch (err) {
      if (this.group === group) this.group = null;
      await stop(group);
      throw err;
    }
    this.o.log.info({ ms: Date.now() - started }, 'story shard built in its worker');
  }

  async released(): Promise<void> {
    const g = this.group;
    this.group = null;
    if (g) await stop(g);
  }

  deliver(to: Address, msg: Message, reply?: ReplyFn): void {
    const g = this.group;
    if (!g) {
      const err = new ActorUnavailableError(to, 'the story shard is not open here');
      if (reply) return reply(err);
      throw err;
    }
    g.deliver(to, msg, reply);
  }
}

/** Ends a worker: what it has in hand for a moment, then it is terminated (a replay is not waited for). */
async function stop(g: WorkerGroup): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closed = g.close().then(() => true);
  const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 2_000)));
  if (!(await Promise.race([closed, late]))) await Promise.all(g.threads.map((t) => t.terminate()));
  clearTimeout(timer);
  await closed.catch(() => undefined);
}
