import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineBehaviour } from '../../src/runtime/actor.js';
import { ActorSystem } from '../../src/runtime/system.js';
import { WorkerGroup } from '../../src/runtime/worker-group.js';
import type { TShardMsg } from './fixtures/tshard.js';

const fixture = new URL('./fixtures/tshard.ts', import.meta.url).href;
/**
 * The first ask of each test boots a worker thread that compiles the TypeScript fixture: on a
 * loaded machine that alone took longer than the default 5 s ask timeout. Asks may take this long.
 */
const ASK_MS = 60_000;

describe('worker-hosted actors', { timeout: 3 * ASK_MS }, () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'newsagg-worker-'));
    process.env.NEWSAGG_TEST_STATE_DIR = dir;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps state across batches in one worker thread, in order', async () => {
    const sys = new ActorSystem({ askTimeoutMs: ASK_MS });
    const group = new WorkerGroup({ name: 'test', kinds: { tshard: fixture }, maxBatch: 64 });
    sys.hostInWorkers(group);
    for (let i = 0; i < 1000; i++) sys.send('tshard/a', { type: 'add', items: [i] });
    const counts = await Promise.all([1, 2, 3].map(() => sys.ask<number, TShardMsg>('tshard/a', { type: 'add', items: [0] })));
    expect(counts).toEqual([1001, 1002, 1003]);
    const got = await sys.ask<{ sum: number; count: number; threadId: number }>('tshard/a', { type: 'get' });
    expect(got.sum).toBe((999 * 1000) / 2);
    expect(got.threadId).not.toBe(threadId);
    await sys.shutdown();
  });

  it('routes messages a worker actor sends back to main-thread actors', async () => {
    const sys = new ActorSystem({ askTimeoutMs: ASK_MS });
    const notes: unknown[] = [];
    sys.register(defineBehaviour<null, { type: 'note'; from: string; sum: number }>({ kind: 'inbox', init: () => null, receive: (_s, m) => void notes.push(m) }));
    sys.hostInWorkers(new WorkerGroup({ name: 'test2', kinds: { tshard: fixture } }));
    await sys.ask('tshard/b', { type: 'add', items: [5, 6] });
    await sys.ask('tshard/b', { type: 'notify', to: 'inbox/1' });
    await sys.idle();
    expect(notes).toEqual([{ type: 'note', from: 'tshard/b', sum: 11 }]);
    await sys.shutdown();
  });

  it('fails pending callers clearly when the worker dies, then rebuilds state through init', async () => {
    const sys = new ActorSystem({ askTimeoutMs: ASK_MS });
    const group = new WorkerGroup({ name: 'test3', kinds: { tshard: fixture } });
    sys.hostInWorkers(group);
    await sys.ask('tshard/c', { type: 'add', items: [10, 20] }); // persisted: multi-item add
    const before = await sys.ask<{ threadId: number }>('tshard/c', { type: 'get' });
    await expect(sys.ask('tshard/c', { type: 'die' })).rejects.toMatchObject({ code: 'ACTOR_UNAVAILABLE' });
    expect(group.workerFailures).toBe(1);
    const after = await sys.ask<{ sum: number; count: number; threadId: number }>('tshard/c', { type: 'get' });
    expect(after.sum).toBe(30);
    expect(after.count).toBe(2);
    expect(after.threadId).not.toBe(before.threadId);
    await sys.shutdown();
  });
});
