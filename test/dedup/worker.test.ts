import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DedupCoordinator, type ShardTransport } from '../../src/actors/dedup/coordinator.js';
import { shardKey, type DedupShardReply } from '../../src/actors/dedup/dedup-shard.js';
import { fingerprint } from '../../src/actors/dedup/fingerprint.js';
import { address } from '../../src/runtime/actor.js';
import { ActorSystem } from '../../src/runtime/system.js';
import { WorkerGroup } from '../../src/runtime/worker-group.js';
import { TaskPool } from '../../src/runtime/task-pool.js';
import { FileFingerprintStore } from './fixtures/file-store.js';
import { STORIES, syndicate } from './fixtures/stories.js';

const fixture = new URL('./fixtures/dedup-shard-file.ts', import.meta.url).href;
// shards rebuild what lies within the window before the wall clock, so the articles are recent
const T0 = Date.now() - 3_600_000;
const dir = mkdtempSync(join(tmpdir(), 'newsagg-dedup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fp(story: number, variant: number | null) {
  const f = variant === null ? STORIES[story]! : syndicate(STORIES[story]!, variant);
  return fingerprint(f.title, f.text.slice(0, 300), f.text);
}

describe('DedupShard actors in a worker thread', () => {
  it('answer through the runtime, and a killed worker rebuilds its shards and keeps answering', async () => {
    const P = 2;
    const storePath = join(dir, 'fingerprints.jsonl');
    const store = new FileFingerprintStore(storePath);
    const sys = new ActorSystem();
    const group = new WorkerGroup({ name: 'dedup-test', kinds: { dedup: fixture }, workerData: { storePath, partitions: P } });
    sys.hostInWorkers(group);
    const transport: ShardTransport = {
      ask: (i, p, msg) => sys.ask<DedupShardReply>(address('dedup', shardKey(i, p)), msg, 20_000),
    };
    const coord = new DedupCoordinator(transport, P);
    // what a node stores with each batch: the records its decisions carry
    const keep = <D extends { record: Parameters<FileFingerprintStore['append']>[0] | null }>(ds: D[]): D[] => {
      for (const d of ds) if (d.record) store.append(d.record);
      return ds;
    };
    const first = await coord.submit([
      { id: 'a', fp: fp(0, null), publishedAt: T0 },
      { id: 'b', fp: fp(1, null), publishedAt: T0 },
      { id: 'a1', fp: fp(0, 1), publishedAt: T0 + 1000 },
    ]).then(keep);
    expect(first.map((d) => d.duplicateOf)).toEqual([null, null, 'a']);

    const [thread] = group.threads;
    await thread!.terminate();

    const second = await coord.submit([
      { id: 'a2', fp: fp(0, 2), publishedAt: T0 + 2000 },
      { id: 'b3', fp: fp(1, 3), publishedAt: T0 + 3000 },
      { id: 'c', fp: fp(2, null), publishedAt: T0 + 4000 },
    ]);
    expect(second.map((d) => d.duplicateOf)).toEqual(['a', 'b', null]);
    const stats = await sys.ask<DedupShardReply>(address('dedup', shardKey(0, 0)), { type: 'stats' }, 20_000);
    expect(stats.type).toBe('stats');
    await sys.shutdown();
  });
});

describe('fingerprint task module', () => {
  it('runs in the shared worker pool and gives the same fingerprints as in-thread', async () => {
    const pool = new TaskPool({ threads: 1, typescript: true });
    try {
      const mod = new URL('../../src/actors/dedup/fingerprint-task.ts', import.meta.url).href;
      const items = STORIES.map((s) => ({ title: s.title, snippet: s.text.slice(0, 300), text: s.text }));
      const got = await pool.run<unknown, { hi: number; lo: number }[]>(mod, { items });
      expect(got.map((f) => [f.hi, f.lo])).toEqual(items.map((it) => {
        const f = fingerprint(it.title, it.snippet, it.text);
        return [f.hi, f.lo];
      }));
    } finally {
      await pool.close();
    }
  });
});
