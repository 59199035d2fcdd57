import { decode, encode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteQueueStreams } from '../../src/runtime/jetstream-setup.js';
import { connectNats, type NatsLink } from '../../src/runtime/nats-connect.js';
import { JetStreamWorkQueue, isTransientError, type JetStreamQueueOptions } from '../../src/runtime/work-queue-nats.js';
import { OwnNatsServer, SHARED_NATS_URL, uniquePrefix, until } from '../helpers/nats.js';

interface Item {
  id: string;
  n: number;
  poison?: boolean;
}

let link: NatsLink;
const streams: { link: () => NatsLink; name: string }[] = [];

beforeAll(async () => {
  link = await connectNats({ url: SHARED_NATS_URL });
});
afterAll(async () => {
  for (const s of streams) if (!s.link().nc.isClosed()) await deleteQueueStreams(s.link().nc, s.name).catch(() => undefined);
  await link.close();
});

function config(over: Partial<JetStreamQueueOptions<Item>> = {}): JetStreamQueueOptions<Item> {
  const p = uniquePrefix('wq');
  streams.push({ link: () => link, name: p });
  return { stream: p, subject: `${p}.ingest`, durable: 'process', idOf: (i) => i.id, lingerMs: 5, ...over };
}

const items = (n: number, from = 0): Item[] => Array.from({ length: n }, (_, i) => ({ id: `a${from + i}`, n: from + i }));

/** a consumer that "stores" items idempotently by id and counts how often each was committed */
function store() {
  const committed = new Map<string, number>();
  const batches: number[] = [];
  return {
    committed,
    batches,
    commit(batch: Item[]) {
      batches.push(batch.length);
      for (const it of batch) committed.set(it.id, (committed.get(it.id) ?? 0) + 1);
    },
  };
}

describe('JetStreamWorkQueue', () => {
  it('delivers every appended item in batches, acknowledges after the handler, and drains', async () => {
    const cfg = config({ maxBatch: 50, packItems: 16 });
    const q = await JetStreamWorkQueue.open<Item>(link.nc, cfg);
    const s = store();
    q.consume(async (b) => s.commit(b));
    for (let i = 0; i < 1000; i += 100) await q.append(items(100, i));
    await q.drain();
    expect(s.committed.size).toBe(1000);
    expect([...s.committed.values()].every((c) => c === 1)).toBe(true);
    expect(Math.max(...s.batches)).toBeLessThanOrEqual(50);
    const info = await (await link.nc.jetstreamManager()).streams.info(cfg.stream);
    expect(info.state.messages).toBe(0); // acknowledged messages leave a work-queue stream
    await q.close();
  });

  it('opens idempotently, and drops a second append of the same id', async () => {
    const cfg = config();
    const q1 = await JetStreamWorkQueue.open<Item>(link.nc, cfg);
    const q2 = await JetStreamWorkQueue.open<Item>(link.nc, cfg);
    await q1.append(items(10));
    await q2.append(items(10)); // a retried append: same ids
    const s = store();
    q2.consume(async (b) => s.commit(b));
    await q2.drain();
    expect(s.committed.size).toBe(10);
    expect([...s.committed.values()].every((c) => c === 1)).toBe(true);
    await q1.close();
    await q2.close();
  });

  it('redelivers after transient failures with backoff, and never dead-letters them', async () => {
    const cfg = config({ maxDeliver: 2, retry: { minMs: 50, maxMs: 200 } });
    const q = await JetStreamWorkQueue.open<Item>(link.nc, cfg);
    const s = store();
    let failures = 0;
    q.consume(async (b) => {
      if (failures < 4) {
        failures++;
        throw Object.assign(new Error('database away'), { code: 'DEPENDENCY_UNAVAILABLE' });
      }
      s.commit(b);
    });
    await q.append(items(20));
    await q.drain();
    expect(failures).toBe(4);
    expect(s.committed.size).toBe(20);
    const dead = await (await link.nc.jetstreamManager()).streams.info(`${cfg.stream}_DEAD`);
    expect(dead.state.messages).toBe(0);
    await q.close();
  });

  it('isolates a poison item: every other item is stored, the poison goes to the dead-letter subject after maxDeliver', async () => {
    const cfg = config({ maxBatch: 40, packItems: 8, maxDeliver: 3, retry: { minMs: 20, maxMs: 100 } });
    const q = await JetStreamWorkQueue.open<Item>(link.nc, cfg);
    const s = store();
    q.consume(async (b) => {
      // one transaction per batch: a poison item fails all of it
      if (b.some((i) => i.poison)) throw Object.assign(new Error('cannot parse'), { code: 'BAD_ITEM' });
      s.commit(b);
    });
    const batch = items(40);
    batch[13] = { id: 'poison', n: -1, poison: true };
    await q.append(batch);
    await q.drain();
    expect(s.committed.size).toBe(39);
    expect(s.committed.has('poison')).toBe(false);
    // items in other messages are stored once; the poison's message-mates again on each redelivery (idempotent)
    const mates = new Set(batch.slice(8, 16).map((i) => i.id));
    for (const [id, c] of s.committed) expect(c).toBe(mates.has(id) ? 3 : 1);
    const jsm = await link.nc.jetstreamManager();
    expect((await jsm.streams.info(`${cfg.stream}_DEAD`)).state.messages).toBe(1);
    const dead = await jsm.streams.getMessage(`${cfg.stream}_DEAD`, { last_by_subj: `${cfg.subject}.dead` });
    expect(dead.header.get('Newsagg-Error')).toMatch(/BAD_ITEM|cannot parse/);
    expect(Number(dead.header.get('Newsagg-Deliveries'))).toBe(3);
    expect(dead.header.get('Nats-Msg-Id')).toBe('poison:dead');
    expect(decode(dead.data)).toEqual([{ id: 'poison', n: -1, poison: true }]); // same pack format: can be replayed
    expect((await jsm.streams.info(cfg.stream)).state.messages).toBe(0);
    await q.close();
  });

  it('dead-letters an undecodable message at once', async () => {
    const cfg = config();
    const q = await JetStreamWorkQueue.open<Item>(link.nc, cfg);
    const s = store();
    q.consume(async (b) => s.commit(b));
    const js = link.nc.jetstream();
    await js.publish(cfg.subject, new Uint8Array([0xc1])); // not msgpack
    await js.publish(cfg.subject, encode({ id: 'x' })); // msgpack, not a pack
    await q.append(items(3));
    await q.drain();
    expect(s.committed.size).toBe(3);
    const dead = await (await link.nc.jetstreamManager()).streams.info(`${cfg.stream}_DEAD`);
    expect(dead.state.messages).toBe(2);
    await q.close();
  });

  it('shares the log between two consuming nodes, and a node that dies mid-batch has its items redelivered to the other', async () => {
    const cfg = config({ maxBatch: 25, packItems: 5, ackWaitMs: 1500 });
    const other = await connectNats({ url: SHARED_NATS_URL });
    const qa = await JetStreamWorkQueue.open<Item>(link.nc, cfg);
    const qb = await JetStreamWorkQueue.open<Item>(other.nc, cfg);
    const s = store();
    const byB: string[] = [];
    let bStuck = false;
    qa.consume(async (b) => s.commit(b));
    qb.consume(async (b) => {
      if (!bStuck) {
        // b takes a batch and then dies holding it, unacknowledged
        bStuck = true;
        byB.push(...b.map((i) => i.id));
        await other.close();
        return new Promise<void>(() => undefined);
      }
    });
    for (let i = 0; i < 500; i += 50) await qa.append(items(50, i));
    await until(() => s.committed.size === 500, 'every item stored by the surviving node', 60_000, 50);
    expect(byB.length).toBeGreaterThan(0);
    expect(byB.every((id) => s.committed.get(id) === 1)).toBe(true);
    expect([...s.committed.values()].every((c) => c === 1)).toBe(true);
    await qa.close();
  });

  it('close within a budget: what is not started goes back at once, a batch still running when the budget ends too', async () => {
    // a long ack wait: what the other node gets soon was handed back, not timed out
    const cfg = config({ maxBatch: 10, packItems: 10, maxInFlight: 4, concurrency: 1, ackWaitMs: 600_000 });
    const other = await connectNats({ url: SHARED_NATS_URL });
    const qa = await JetStreamWorkQueue.open<Item>(link.nc, cfg);
    const qb = await JetStreamWorkQueue.open<Item>(other.nc, cfg);
    let calls = 0;
    // a batch that never finishes (a write stuck on a shard owner that is gone)
    qa.consume(async () => {
      calls++;
      return new Promise<void>(() => undefined);
    });
    await qa.append(items(100));
    await until(() => calls === 1, 'the first batch in the handler');
    await until(async () => (await (await link.nc.jetstreamManager()).consumers.info(cfg.stream, cfg.durable)).num_ack_pending >= 2, 'more messages in hand than the one running');
    await qa.close(300);
    const s = store();
    qb.consume(async (b) => s.commit(b));
    await until(() => s.committed.size === 100, 'every item stored by the other node', 120_000, 50);
    expect([...s.committed.values()].every((c) => c === 1)).toBe(true);
    expect(calls).toBe(1);
    await qb.close();
    await other.close();
  });

  it('bounds what one node holds unacknowledged', async () => {
    const cfg = config({ maxBatch: 10, packItems: 10, maxInFlight: 2, concurrency: 1 });
    const q = await JetStreamWorkQueue.open<Item>(link.nc, cfg);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let calls = 0;
    q.consume(async () => {
      calls++;
      await gate;
    });
    await q.append(items(200));
    await until(() => calls === 1, 'the first batch in the handler');
    const jsm = await link.nc.jetstreamManager();
    let most = 0;
    for (let i = 0; i < 20; i++) {
      const ci = await jsm.consumers.info(cfg.stream, cfg.durable);
      most = Math.max(most, ci.num_ack_pending);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(most).toBeGreaterThan(0);
    expect(most).toBeLessThanOrEqual(2); // messages of 10 items
    expect(calls).toBe(1);
    release();
    await q.drain();
    await q.close();
  });

  it('refuses appends with QUEUE_FULL when the stream is at its size limit', async () => {
    const cfg = config({ maxBytes: 4096 });
    const q = await JetStreamWorkQueue.open<Item>(link.nc, cfg);
    const big = (i: number): Item => ({ id: `big${i}`, n: i, poison: false, ...{ pad: 'x'.repeat(1000) } });
    let err: unknown;
    try {
      for (let i = 0; i < 20; i++) await q.append([big(i)]);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'QUEUE_FULL' });
    expect(isTransientError(err)).toBe(true);
    await q.close();
  });

  it.each([
    [{ code: 'DEPENDENCY_UNAVAILABLE' }, true],
    [{ code: 'ECONNREFUSED' }, true],
    [{ code: '57P01' }, true],
    [{ transient: true }, true],
    [{ code: 'BAD_ITEM' }, false],
    [new Error('x'), false],
    [null, false],
  ])('isTransientError(%j) = %s', (err, want) => {
    expect(isTransientError(err)).toBe(want);
  });
});

describe('JetStreamWorkQueue across a NATS restart', () => {
  it('loses nothing: appends retried by the producer, consumption resumes after the restart', async () => {
    const server = await OwnNatsServer.start();
    const pl = await connectNats({ url: server.url, reconnectWaitMs: 100 });
    const cl = await connectNats({ url: server.url, reconnectWaitMs: 100 });
    const p = uniquePrefix('wqr');
    const cfg: JetStreamQueueOptions<Item> = { stream: p, subject: `${p}.ingest`, durable: 'process', idOf: (i) => i.id, lingerMs: 5, ackWaitMs: 2000, timeoutMs: 1000 };
    try {
      const producer = await JetStreamWorkQueue.open<Item>(pl.nc, cfg);
      const consumer = await JetStreamWorkQueue.open<Item>(cl.nc, cfg);
      const s = store();
      consumer.consume(async (b) => s.commit(b));
      let appendFailures = 0;
      let produced = false;
      const produce = (async () => {
        for (let i = 0; i < 3000; i += 100) {
          for (;;) {
            try {
              await producer.append(items(100, i));
              break;
            } catch (err) {
              // the producer keeps the batch until it is durable (the fetcher's contract)
              expect((err as { code: string }).code).toMatch(/QUEUE_APPEND_FAILED|QUEUE_FULL/);
              appendFailures++;
              await new Promise((r) => setTimeout(r, 100));
            }
          }
          await new Promise((r) => setTimeout(r, 30));
        }
        produced = true;
      })();
      await until(() => s.committed.size > 300, 'consumption to begin', 30_000);
      await server.kill();
      expect(produced).toBe(false); // the restart falls in the middle of producing
      await server.up();
      await produce;
      await until(() => s.committed.size === 3000, 'every item stored after the restart', 90_000, 100);
      expect([...Array(3000).keys()].every((i) => s.committed.has(`a${i}`))).toBe(true);
      await consumer.drain();
      await producer.close();
      await consumer.close();
    } finally {
      await pl.close().catch(() => undefined);
      await cl.close().catch(() => undefined);
      await server.stop();
    }
  }, 150_000);
});
