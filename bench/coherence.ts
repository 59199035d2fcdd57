/**
 * Coherence of API nodes (`npm run bench -- coherence`): how fast what one node publishes reaches
 * another node, over NATS (`--nats-url`, the cluster path) and, for reference in the same run,
 * over Redis pub/sub (server mode without NATS). Two nodes in this process share a scratch
 * PostgreSQL database and a private Redis; node A runs the API role (feed service, live hub).
 *
 * 1. Invalidation: a message on the cache's invalidation channel published on node B, until a
 *    subscriber on node A has it (what makes A drop hot pages): p50/p99 over sequential messages.
 * 2. Live push across nodes: a breaking live event published on node B, until every one of C bare
 *    WebSocket clients connected to node A has read its frame: p50/p99 over clients x pushes.
 *
 * One machine, one clock; the figures include this process's own event loop serving both nodes
 * and the clients. Sizes: NEWSAGG_BENCH_COHERENCE_MESSAGES (500), _PUSHES (100), _CLIENTS (100).
 */
import { INVALIDATE_CHANNEL } from '../src/actors/store/feed-cache.js';
import { liveEventsFor, type BreakingItem } from '../src/actors/store/live-events.js';
import { resolveConfig } from '../src/config.js';
import { startNode, type Node } from '../src/node.js';
import { apiComponent } from '../src/roles/api.js';
import { RawWs } from '../test/helpers/raw-ws.js';
import { processCpuMs } from './fixtures/cpu-meter.js';
import { scratch } from './fixtures/scratch-stores.js';

type Figures = Record<string, number | string | boolean>;
const env = process.env;
const MESSAGES = Number(env.NEWSAGG_BENCH_COHERENCE_MESSAGES ?? 500);
const PUSHES = Number(env.NEWSAGG_BENCH_COHERENCE_PUSHES ?? 100);
const CLIENTS = Number(env.NEWSAGG_BENCH_COHERENCE_CLIENTS ?? 100);
const NATS_URL = env.NEWSAGG_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A promise and its resolver, for "the next one of these". */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function within<T>(p: Promise<T>, what: string, timeoutMs = 30_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs)))]).finally(() => clearTimeout(timer));
}

const item = (id: string): BreakingItem =>
  ({
    article_id: `a-${id}`, story_id: id, title: `Breaking ${id}`, summary: 'A summary of the usual length for a breaking story in the feed.', thumbnail_url: null,
    publisher_name: 'Wire', published_at: new Date().toISOString(), source_url: `https://wire.example/${id}`, category: 'world', region: 'us',
    coverage_count: 12, breaking_since: new Date().toISOString(),
  }) as BreakingItem;

async function measure(bus: 'nats' | 'redis'): Promise<Figures> {
  const s = await scratch('server', `coh_${bus}`);
  const prefix = `bench_coh_${process.pid}_${bus}`;
  const nodes: Node[] = [];
  const clients: RawWs[] = [];
  try {
    const args = (id: string) =>
      resolveConfig(
        ['--port', '0', '--host', '127.0.0.1', '--data-dir', s.dataDir, '--database-url', s.databaseUrl!, '--redis-url', s.redisUrl!, '--node-id', id, '--log-level', 'warn', '--live-max-connections-per-client', '100000', '--live-connect-rps', '100000', '--live-connect-burst', '100000', '--rate-limit-rps', '100000', '--rate-limit-burst', '100000',
          ...(bus === 'nats' ? ['--nats-url', NATS_URL, '--nats-prefix', prefix] : [])],
        {},
      );
    const b = await startNode(args('bench-b'));
    nodes.push(b);
    const a = await startNode(args('bench-a'), { components: [apiComponent()] });
    nodes.push(a);

    // 1. invalidation channel, B -> A, one message at a time
    let next = signal();
    let want = -1;
    let at = 0;
    const off = await a.cache.subscribe(INVALIDATE_CHANNEL, (m) => {
      if ((JSON.parse(m) as { bench?: number }).bench === want) {
        at = performance.now();
        next.resolve();
      }
    });
    const inval: number[] = [];
    const cpu0 = processCpuMs(process.pid);
    for (let i = 0; i < MESSAGES; i++) {
      next = signal();
      want = i;
      const t0 = performance.now();
      await b.cache.publish(INVALIDATE_CHANNEL, JSON.stringify({ feeds: [], stories: [], bench: i }));
      await within(next.promise, `invalidation ${i}`);
      inval.push(at - t0);
    }
    const cpu1 = processCpuMs(process.pid);
    await off();
    inval.sort((x, y) => x - y);

    // 2. breaking pushes, B -> every WebSocket client on A
    for (let i = 0; i < CLIENTS; i++) {
      const ws = await RawWs.open(a.port, { keep: false });
      clients.push(ws);
    }
    const latencies: number[] = [];
    let t0 = 0;
    let story = '';
    let count = 0;
    let all = signal();
    for (const ws of clients) {
      const subscribed = signal();
      ws.onFrame = (f) => {
        const m = JSON.parse(f.payload.toString('utf8')) as { type: string; story?: { story_id: string } };
        if (m.type === 'subscribed') subscribed.resolve();
        if (m.type === 'breaking' && m.story?.story_id === story) {
          latencies.push(performance.now() - t0);
          if (++count === CLIENTS) all.resolve();
        }
      };
      ws.json({ type: 'subscribe', topics: ['breaking'] });
      await within(subscribed.promise, 'subscribed');
    }
    const events = liveEventsFor(b.cache, b.broadcast, b.log);
    for (let i = 0; i < PUSHES; i++) {
      story = `${prefix}-${i}`;
      count = 0;
      all = signal();
      t0 = performance.now();
      await events.publish({ type: 'breaking', story: item(story), regions: ['us'], active: true });
      await within(all.promise, `push ${i} on every client`);
    }
    latencies.sort((x, y) => x - y);
    return {
      [`${bus}_invalidation_p50_ms`]: percentile(inval, 50),
      [`${bus}_invalidation_p99_ms`]: percentile(inval, 99),
      ...(cpu0 !== null && cpu1 !== null ? { [`${bus}_invalidation_cpu_ms_per_1000_both_nodes`]: ((cpu1 - cpu0) / MESSAGES) * 1000 } : {}),
      [`${bus}_live_push_p50_ms`]: percentile(latencies, 50),
      [`${bus}_live_push_p99_ms`]: percentile(latencies, 99),
    };
  } finally {
    for (const c of clients) c.close();
    for (const n of nodes.reverse()) await n.stop().catch(() => undefined);
    await s.cleanup();
  }
}

export async function run(): Promise<Figures> {
  const out: Figures = { messages: MESSAGES, pushes: PUSHES, clients: CLIENTS };
  for (const bus of ['nats', 'redis'] as const) Object.assign(out, await measure(bus));
  return out;
}
