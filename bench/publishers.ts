import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadavg } from 'node:os';
import { publisherBehaviour, type PublisherMsg } from '../src/actors/publisher/actor.js';
import type { PublisherState, PublisherStore } from '../src/actors/publisher/state.js';
import type { FeedEntry, FetchRequest, FetchResult, ParsedFeed } from '../src/actors/publisher/types.js';
import { ManualClock } from '../src/runtime/clock.js';
import { ActorSystem } from '../src/runtime/system.js';
import { TimerHeap } from '../src/runtime/timers.js';

/**
 * 50,000 publisher actors on one node (the real actor runtime and its one timer heap) for a
 * simulated day at accelerated time. The publishers are simulated in memory (no sockets: a
 * day of 2 M polls over HTTP would measure the network stack, not the scheduler): each posts
 * as a Poisson process with a rate from a heavy-tailed mix, serves the 20 newest items with an
 * ETag, and a share of them ignore conditional GET, set `<ttl>` or fail.
 *
 * Figures: heap per publisher (idle, after every publisher has polled, so seen rings are
 * filled), scheduler CPU share at 22 polls/s (CPU per poll of runtime + actor + policy + state
 * serialisation, excluding the simulated fetch and parse, times 22), the conditional-GET hit
 * rate, requests per new article, and a bare timer-heap event cost measured in the same run.
 * Env: BENCH_PUBLISHERS (50000), BENCH_HOURS (24).
 */

const HOUR = 3600_000;
const STEP_MS = 30_000; // shorter than any poll interval (≥ 1 min), so no timer fires late

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian(r: () => number): number {
  return Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
}

/** The simulated publishers, in typed arrays so their own memory stays out of the way. */
class SimWorld {
  readonly rate: Float64Array; // posts per hour
  readonly count: Uint32Array; // items published so far
  readonly nextAt: Float64Array; // time of the next post
  readonly lastAt: Float64Array; // time of the newest post
  readonly flags: Uint8Array; // 1 = no conditional GET, 2 = ttl 60, 4 = failing 
  fetches = 0;
  notModified = 0;
  simNs = 0n;

  constructor(readonly n: number, readonly start: number, private readonly r: () => number) {
    this.rate = new Float64Array(n);
    this.count = new Uint32Array(n);
    this.nextAt = new Float64Array(n);
    this.lastAt = new Float64Array(n);
    this.flags = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      // posts per day: log-normal, median 6/day, a long tail of wires posting hundreds a day
      const perDay = Math.min(600, 6 * Math.exp(1.3 * gaussian(r)));
      this.rate[i] = perDay / 24;
      this.count[i] = 20; // a backlog of 20 items
      this.lastAt[i] = start - this.gap(i);
      this.nextAt[i] = start + this.gap(i);
      const u = r();
      this.flags[i] = (u < 0.1 ? 1 : 0) | (r() < 0.1 ? 2 : 0) | (r() < 0.02 ? 4 : 0);
    }
  }

  private gap(i: number): number {
    return (-Math.log(1 - this.r()) / this.rate[i]!) * HOUR;
  }

  advance(i: number, now: number): void {
    while (this.nextAt[i]! <= now) {
      this.count[i]!++;
      this.lastAt[i] = this.nextAt[i]!;
      this.nextAt[i]! += this.gap(i);
    }
  }

  fetch = async (req: FetchRequest): Promise<FetchResult> => {
    const t0 = process.hrtime.bigint();
    const i = Number(req.url.slice(req.url.lastIndexOf('/') + 1));
    this.fetches++;
    const now = this.now();
    const flags = this.flags[i]!;
    if (flags & 4 && this.r() < 0.5) {
      this.simNs += process.hrtime.bigint() - t0;
      throw Object.assign(new Error('HTTP 503'), { code: 'FETCH_HTTP_ERROR' });
    }
    this.advance(i, now);
    const etag = `"${this.count[i]}"`;
    const notModified = !(flags & 1) && req.etag === etag;
    if (notModified) this.notModified++;
    const res: FetchResult = {
      status: notModified ? 304 : 200,
      url: req.url,
      permanentRedirect: null,
      notModified,
      body: notModified ? Buffer.alloc(0) : Buffer.from(`${i}:${this.count[i]}`),
      contentType: 'application/rss+xml',
      charset: null,
      headers: {},
      etag: flags & 1 ? null : etag,
      lastModified: null,
      maxAgeMs: null,
      expiresAt: null,
      retryAfterMs: null,
    };
    this.simNs += process.hrtime.bigint() - t0;
    return res;
  };

  parse = (body: Uint8Array | string): ParsedFeed => {
    const t0 = process.hrtime.bigint();
    const [is, cs] = String(body).split(':');
    const i = Number(is);
    const count = Number(cs);
    const entries: FeedEntry[] = [];
    const spacing = HOUR / this.rate[i]!;
    for (let k = count; k > count - 20 && k > 0; k--) {
      // publish dates: the newest at its real time, older ones at the mean spacing before it
      const published = new Date(this.lastAt[i]! - (count - k) * spacing).toISOString();
      entries.push({
        title: `Headline ${k} from publisher ${i}`,
        link: `https://p${i}.example/a/${k}`,
        id: `p${i}-${k}`,
        published,
        updated: null,
        summary: `A short summary of item ${k}`,
        content: null,
        author: null,
        categories: [],
        enclosures: [],
        thumbnail: null,
      });
    }
    const feed = { title: `Publisher ${i}`, link: null, description: null, language: 'en', published: null, updated: null, image: null };
    const out: ParsedFeed = { feed, entries, meta: { format: 'rss2', ttlMinutes: this.flags[i]! & 2 ? 60 : null, hubs: [], self: null, encoding: 'utf-8' } };
    this.simNs += process.hrtime.bigint() - t0;
    return out;
  };

  now: () => number = () => this.start;
}

function gcNow(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
  };
}

/** CPU µs per poll of the simulated side (fetch, and parse for the share of 200s), in a tight loop. */
function calibrateSimUs(world: SimWorld, polls: number, notModified: number): number {
  const K = 20_000;
  const share200 = 1 - notModified / Math.max(1, polls);
  const t0 = process.cpuUsage();
  let sink = 0;
  for (let k = 0; k < K; k++) {
    const i = k % world.n;
    void world.fetch({ url: `https://p${i}.example/feed/${i}`, etag: null, lastModified: null }).catch(() => 0);
    if (k / K < share200) sink += world.parse(`${i}:${world.count[i]}`).entries.length;
  }
  const d = process.cpuUsage(t0);
  return sink >= 0 ? (d.user + d.system) / K : 0;
}

/** The runtime's floor: schedule + fire of one TimerHeap entry on a manual clock. */
function bareHeapUsPerEvent(n: number): number {
  const clock = new ManualClock(0);
  const heap = new TimerHeap(clock);
  const r = rng(7);
  let fired = 0;
  for (let i = 0; i < n; i++) heap.schedule(`k${i}`, r() * 1000, () => fired++);
  const t0 = process.cpuUsage();
  for (let i = 0; i < n; i++) heap.schedule(`k${i}`, 1000 + r() * 1000, () => fired++);
  clock.advance(2001);
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / n;
}

/**
 * What the runtime itself holds per idle actor (cell, context, mailbox, one timer), measured
 * with a behaviour whose state is an empty object; the publisher's own share is the rest.
 */
async function runtimeBytesPerActor(n: number, mem: () => number): Promise<number> {
  const clock = new ManualClock(0);
  const before = mem();
  const system = new ActorSystem({ clock });
  system.register({
    kind: 'idle',
    init: () => ({}),
    receive: (_s: object, _m: { type: string }, ctx) => ctx.schedule(HOUR, { type: 'tick' }, 'tick'),
  });
  for (let i = 0; i < n; i++) system.send(`idle/${i}`, { type: 'tick' });
  await system.idle();
  const per = (mem() - before) / n;
  await system.shutdown(1_000);
  return per;
}

export async function run(): Promise<Record<string, number | string | boolean>> {
  const N = Number(process.env.BENCH_PUBLISHERS ?? 50_000);
  const HOURS = Number(process.env.BENCH_HOURS ?? 24);
  const load = loadavg()[0]!;
  const gc = gcNow();
  const start = Date.UTC(2026, 0, 5);
  const clock = new ManualClock(start);
  const world = new SimWorld(N, start, rng(1));
  world.now = () => clock.now();
  let saves = 0;
  let emittedArticles = 0;
  const store: PublisherStore = {
    load: () => null,
    save: (_s: PublisherState) => {
      saves++; // the SQL store is elsewhere; serialising the state is still paid for here
    },
  };
  // heap plus ArrayBuffer contents (the seen rings' backing stores live outside the JS heap)
  const mem = (): number => {
    gc();
    const u = process.memoryUsage();
    return u.heapUsed + u.arrayBuffers;
  };
  const heap0 = mem();

  const system = new ActorSystem({ clock, random: rng(2) });
  system.register(
    publisherBehaviour({
      fetch: world.fetch,
      parse: world.parse,
      emit: async (a) => {
        emittedArticles += a.length;
      },
      store,
      now: () => clock.now(),
      random: rng(3),
    }),
  );
  for (let i = 0; i < N; i++) {
    const msg: PublisherMsg = { type: 'configure', url: `https://p${i}.example/feed/${i}`, name: `Publisher ${i}` };
    system.send(`publisher/${i}`, msg);
  }
  await system.idle();

  const stepUntil = async (end: number): Promise<void> => {
    while (clock.now() < end) {
      clock.advance(Math.min(STEP_MS, end - clock.now()));
      await system.idle();
    }
  };

  // warm-up: every publisher polls at least once (first polls spread over 15 min)
  await stepUntil(start + 20 * 60_000);
  const heapPer = (mem() - heap0) / N;
  const warmFetches = world.fetches;
  const warmNotModified = world.notModified;
  const warmEmitted = emittedArticles;

  const cpu0 = process.cpuUsage();
  const wall0 = performance.now();
  await stepUntil(start + HOURS * HOUR);
  const wallMs = performance.now() - wall0;
  const cpu = process.cpuUsage(cpu0);
  const polls = world.fetches - warmFetches;
  const cpuUs = cpu.user + cpu.system;
  const usPerPollTotal = cpuUs / polls;
  // the simulated publishers' own CPU per poll, calibrated in a tight loop (wall-clock timing
  // inside the run would count preemption on a busy machine)
  const simPerPoll = calibrateSimUs(world, polls, world.notModified - warmNotModified);
  const usPerPoll = Math.max(0, usPerPollTotal - simPerPoll);
  const simulatedS = (HOURS * HOUR - 20 * 60_000) / 1000;
  const heapEnd = (mem() - heap0) / N;
  const bareUs = bareHeapUsPerEvent(200_000);
  await system.shutdown(5_000);
  const runtimePer = await runtimeBytesPerActor(N, mem);

  const newArticles = emittedArticles - warmEmitted;
  return {
    publishers: N,
    simulated_hours: HOURS,
    heap_bytes_per_publisher: Math.round(heapPer),
    heap_bytes_per_publisher_end: Math.round(heapEnd),
    heap_mb_total: Math.round((heapPer * N) / 1048576),
    runtime_bytes_per_idle_actor: Math.round(runtimePer),
    publisher_own_bytes: Math.round(heapPer - runtimePer),
    polls,
    polls_per_s_simulated: +(polls / simulatedS).toFixed(2),
    us_per_poll_total: +usPerPollTotal.toFixed(2),
    us_per_poll_simulated_publisher: +simPerPoll.toFixed(2),
    us_per_poll_scheduler: +usPerPoll.toFixed(2),
    scheduler_cpu_share: +((usPerPoll * 22) / 1e6).toFixed(5),
    cpu_share_incl_simulated_publishers: +((usPerPollTotal * 22) / 1e6).toFixed(5),
    bare_heap_us_per_event: +bareUs.toFixed(3),
    ratio_poll_vs_bare_heap_event: +(usPerPoll / bareUs).toFixed(1),
    not_modified_ratio: +((world.notModified - warmNotModified) / polls).toFixed(3),
    requests_per_new_article: +(polls / Math.max(1, newArticles)).toFixed(2),
    new_articles: newArticles,
    state_saves: saves,
    wall_s: +(wallMs / 1000).toFixed(1),
    speedup_vs_real_time: Math.round((simulatedS * 1000) / wallMs),
    measured_at: new Date().toISOString(),
    load_avg_1m: +load.toFixed(2),
    quiet: load < 0.5,
  };
}
