import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveInterests } from '../../src/actors/store/readers.js';
import { Profiles } from '../../src/api/readers/profiles.js';
import { NatsBroadcast, withNatsPubSub } from '../../src/runtime/broadcast-nats.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import type { Cache } from '../../src/runtime/cache.js';
import { connectNats, type NatsLink } from '../../src/runtime/nats-connect.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { SHARED_NATS_URL, TcpProxy, uniquePrefix, until } from '../helpers/nats.js';

/**
 * Reader profiles are kept fresh by change events only. A node whose NATS link was away missed
 * the events sent meanwhile, so once the link is back it reads every profile again.
 */
describe('reader profiles after a gap in the change events', () => {
  let db: TestDb;
  let proxy: TcpProxy;
  let link: NatsLink;
  let cache: Cache;

  beforeAll(async () => {
    db = await scratchPostgres();
    proxy = await TcpProxy.start(Number(new URL(SHARED_NATS_URL).port));
    link = await connectNats({ url: proxy.url, prefix: uniquePrefix('gap'), reconnectWaitMs: 100 });
    cache = withNatsPubSub(new MemoryCache(), new NatsBroadcast(link));
  }, 60_000);
  afterAll(async () => {
    await cache?.close();
    await link?.close();
    await proxy?.close();
    await db?.cleanup();
  });

  it('drops the profiles it holds when the link comes back, and reads the changed one again', async () => {
    await saveInterests(db.sql, 'r_1', { categories: ['science'] }, {});
    await saveInterests(db.sql, 'r_2', { categories: ['sports'] }, {});
    const profiles = new Profiles({ sql: db.sql, cache });
    await profiles.start();
    const before = await profiles.get('r_1');
    await profiles.get('r_2');
    expect(before.keys).toContain('c:science');
    expect(profiles.size).toBe(2);

    // a change made elsewhere whose event this node never hears (written straight to the database)
    await saveInterests(db.sql, 'r_1', { categories: ['business'] }, {});
    expect(profiles.get('r_1')).toBe(before); // still held: no event came

    // the link breaks (the proxy drops its connections) and the client reconnects
    proxy.heal();
    await until(() => profiles.size === 0, 'profiles dropped after the reconnect');
    const after = await profiles.get('r_1');
    expect(after.keys).toContain('c:business');
    expect(after.keys).not.toContain('c:science');
    await profiles.stop();
  });
});
