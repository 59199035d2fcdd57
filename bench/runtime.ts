import { Piscina } from 'piscina';
import { defineBehaviour } from '../src/runtime/actor.js';
import { ActorSystem } from '../src/runtime/system.js';
import { WorkerGroup } from '../src/runtime/worker-group.js';

/** Runtime throughput beside raw references measured in the same run. */
export async function run(): Promise<Record<string, number>> {
  // reference: a plain function call loop doing the same work as the actor
  const state = { n: 0 };
  const fn = (s: { n: number }, m: { type: string; v: number }) => {
    s.n += m.v;
  };
  const N = 2_000_000;
  let t = performance.now();
  for (let i = 0; i < N; i++) fn(state, { type: 'add', v: 1 });
  const callsPerS = N / ((performance.now() - t) / 1000);

  const sys = new ActorSystem();
  sys.register(defineBehaviour<{ n: number }, { type: 'add'; v: number } | { type: 'get' }>({
    kind: 'bench',
    init: () => ({ n: 0 }),
    receive(s, m) {
      if (m.type === 'add') s.n += m.v;
      else return s.n;
      return undefined;
    },
  }));
  // send: 100 actors, many messages each
  const SENDS = 2_000_000;
  t = performance.now();
  for (let i = 0; i < SENDS; i++) sys.send(`bench/${i % 100}`, { type: 'add', v: 1 });
  await sys.idle();
  const sendPerS = SENDS / ((performance.now() - t) / 1000);

  // ask: 1,000 in flight at a time over 100 actors
  const ASKS = 300_000;
  t = performance.now();
  for (let done = 0; done < ASKS; done += 1000) {
    const batch = [];
    for (let j = 0; j < 1000; j++) batch.push(sys.ask(`bench/${j % 100}`, { type: 'get' }));
    await Promise.all(batch);
  }
  const askPerS = ASKS / ((performance.now() - t) / 1000);
  await sys.shutdown();

  // raw piscina round trips (pipelined, 64 in flight) as the worker reference
  const raw = new Piscina({ filename: new URL('./fixtures/raw-task.ts', import.meta.url).href, execArgv: ['--import', 'tsx'], minThreads: 1, maxThreads: 1, concurrentTasksPerWorker: 64, idleTimeout: Infinity });
  await raw.run(0);
  const RAW = 20_000;
  t = performance.now();
  for (let done = 0; done < RAW; done += 64) await Promise.all(Array.from({ length: 64 }, (_, i) => raw.run(i)));
  const rawRoundTripsPerS = RAW / ((performance.now() - t) / 1000);
  await raw.destroy();

  // worker-hosted actor: single-item sends, batched by the group
  const wsys = new ActorSystem();
  wsys.hostInWorkers(new WorkerGroup({ name: 'bench', kinds: { sum: new URL('./fixtures/sum-actor.ts', import.meta.url).href }, maxBatch: 2048 }));
  await wsys.ask('sum/0', { type: 'get' });
  const ITEMS = 1_000_000;
  t = performance.now();
  for (let i = 0; i < ITEMS; i++) {
    wsys.send(`sum/${i & 3}`, { type: 'add', v: i });
    if ((i & 0xffff) === 0) await new Promise((r) => setImmediate(r));
  }
  const counts = await Promise.all([0, 1, 2, 3].map((k) => wsys.ask<number>(`sum/${k}`, { type: 'get' }, 60_000)));
  const workerItemsPerS = ITEMS / ((performance.now() - t) / 1000);
  if (counts.reduce((a, b) => a + b, 0) !== ITEMS) throw new Error(`worker actors saw ${counts} items`);
  // items packed in messages (the shape shard actors receive)
  t = performance.now();
  const PACK = 256;
  for (let i = 0; i < ITEMS; i += PACK) wsys.send(`sum/${(i / PACK) & 3}`, { type: 'addMany', vs: Array.from({ length: PACK }, (_, j) => i + j) });
  await Promise.all([0, 1, 2, 3].map((k) => wsys.ask<number>(`sum/${k}`, { type: 'get' }, 60_000)));
  const workerPackedItemsPerS = ITEMS / ((performance.now() - t) / 1000);
  await wsys.shutdown();

  return {
    send_msgs_per_s: sendPerS,
    ask_per_s: askPerS,
    worker_items_per_s: workerItemsPerS,
    worker_packed_items_per_s: workerPackedItemsPerS,
    ref_function_calls_per_s: callsPerS,
    ref_raw_piscina_round_trips_per_s: rawRoundTripsPerS,
    send_ratio_vs_function_call: sendPerS / callsPerS,
    worker_items_ratio_vs_raw_piscina: workerItemsPerS / rawRoundTripsPerS,
  };
}
