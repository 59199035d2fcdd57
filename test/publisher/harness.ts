import { Fetcher } from '../../src/actors/fetch/index.js';
import { publisherBehaviour, type PublisherDeps, type PublisherMsg } from '../../src/actors/publisher/actor.js';
import { MemoryPublisherStore, type PublisherStatus, type PublisherStore } from '../../src/actors/publisher/state.js';
import type { RawArticle } from '../../src/actors/publisher/types.js';
import { ManualClock, realClock, type Clock } from '../../src/runtime/clock.js';
import { ActorSystem } from '../../src/runtime/system.js';
import { parseFeed } from '../../src/actors/feed/parse.js';

/**
 * A node for the publisher tests: the real actor runtime (one timer heap), the real Fetcher
 * against local HTTP servers, the real feed parser, an in-memory store and an emit log. Time is
 * a ManualClock (`step` moves it and lets the polls it fires finish) or the real clock.
 */
export interface Node {
  system: ActorSystem;
  clock: Clock;
  store: PublisherStore;
  emitted: RawArticle[];
  fetcher: Fetcher;
  /** make emit fail (ingest log down) */
  emitDown: { value: boolean };
  status(id: string): Promise<PublisherStatus>;
  send(id: string, msg: PublisherMsg): void;
  ask<R>(id: string, msg: PublisherMsg): Promise<R>;
  /** ManualClock only: advance in steps, letting every poll finish after each step */
  run(ms: number, stepMs?: number): Promise<void>;
  close(): Promise<void>;
}

let seed = 42;
/** deterministic jitter so failures reproduce */
export const seededRandom = (): number => (seed = (seed * 16807) % 2147483647) / 2147483647;

/** Every `*.sim.test` host is 127.0.0.1, so each publisher has its own origin (own politeness queue). */
const lookup = async (): Promise<{ address: string; family: 4 }[]> => [{ address: '127.0.0.1', family: 4 }];

export function makeNode(opts: {
  manual?: boolean;
  start?: number;
  store?: PublisherStore;
  extra?: Partial<PublisherDeps>;
} = {}): Node {
  const clock: Clock = opts.manual === false ? realClock : new ManualClock(opts.start ?? Date.UTC(2026, 5, 1));
  const system = new ActorSystem({ clock, askTimeoutMs: 20_000 });
  const store = opts.store ?? new MemoryPublisherStore();
  const emitted: RawArticle[] = [];
  const emitDown = { value: false };
  const fetcher = new Fetcher({
    userAgent: 'newsagg-test/0.1 (+https://example.org/newsagg)',
    allowlist: ['127.0.0.0/8', '*.sim.test'],
    lookup,
    crawlDelayMs: 0,
    respectRobots: false,
    perHostConcurrency: 4,
    totalTimeoutMs: 60_000,
    now: () => clock.now(),
  });
  const deps: PublisherDeps = {
    fetch: (req) => fetcher.fetch(req),
    parse: (body, o) => parseFeed(body, { baseUrl: o.baseUrl, contentType: o.contentType ?? undefined }),
    emit: async (articles) => {
      if (emitDown.value) throw new Error('ingest log unavailable');
      emitted.push(...articles);
    },
    store,
    now: () => clock.now(),
    random: seededRandom,
    ...opts.extra,
  };
  system.register(publisherBehaviour(deps));
  const addr = (id: string) => `publisher/${id}`;
  let closed = false;
  return {
    system,
    clock,
    store,
    emitted,
    fetcher,
    emitDown,
    status: (id) => system.ask<PublisherStatus>(addr(id), { type: 'status' }),
    send: (id, msg) => system.send(addr(id), msg),
    ask: <R>(id: string, msg: PublisherMsg) => system.ask<R>(addr(id), msg),
    async run(ms, stepMs = 30_000) {
      if (!(clock instanceof ManualClock)) throw new Error('run() needs a ManualClock');
      await system.idle();
      for (let t = 0; t < ms; t += stepMs) {
        clock.advance(Math.min(stepMs, ms - t));
        await system.idle();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await system.shutdown(2_000);
      await Promise.race([fetcher.close(), new Promise((r) => setTimeout(r, 2_000))]);
    },
  };
}

/** Wait (real time) until a condition holds; for effects that cross real HTTP. */
export async function until(cond: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
