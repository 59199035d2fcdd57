import { encode } from '@msgpack/msgpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { natsLiveEvents, type LiveEvent, type LiveStory } from '../../src/actors/store/live-events.js';
import { NatsBroadcast, withNatsPubSub } from '../../src/runtime/broadcast-nats.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import type { Cache } from '../../src/runtime/cache.js';
import { connectNats, type NatsLink } from '../../src/runtime/nats-connect.js';
import { SHARED_NATS_URL, uniquePrefix, until } from '../helpers/nats.js';

/** Two "nodes" (two connections, two in-process caches that share nothing) on the shared NATS server. */
describe('broadcast over NATS', () => {
  const prefix = uniquePrefix('bc');
  let links: NatsLink[] = [];
  let caches: Cache[] = [];

  beforeAll(async () => {
    links = [await connectNats({ url: SHARED_NATS_URL, prefix }), await connectNats({ url: SHARED_NATS_URL, prefix })];
    caches = links.map((l) => withNatsPubSub(new MemoryCache(), new NatsBroadcast(l)));
  });
  afterAll(async () => {
    for (const c of caches) await c.close();
    for (const l of links) await l.close();
  });

  it('carries cache channels to every node, the publishing one included, once each; keys stay local', async () => {
    const got: string[][] = [[], []];
    const offs = await Promise.all(caches.map((c, i) => c.subscribe('newsagg:invalidate', (m) => got[i]!.push(m))));
    await caches[0]!.publish('newsagg:invalidate', 'one');
    await caches[0]!.publish('newsagg:invalidate', 'two');
    await until(() => got[0]!.length === 2 && got[1]!.length === 2, 'both messages on both nodes');
    expect(got).toEqual([['one', 'two'], ['one', 'two']]);
    // the cache itself is each node's own: only pub/sub goes over the bus
    await caches[0]!.set('k', 'v');
    expect(await caches[0]!.get('k')).toBe('v');
    expect(await caches[1]!.get('k')).toBeNull();
    expect(caches[1]!.mode).toBe('memory');
    // after unsubscribing, node 1 hears nothing more (checked by a later message that node 0 hears)
    await offs[1]!();
    await caches[1]!.publish('newsagg:invalidate', 'three');
    await until(() => got[0]!.length === 3, 'the third message on node 0');
    expect(got[1]).toEqual(['one', 'two']);
  });

  it('drops messages that are not msgpack strings and keeps delivering', async () => {
    const got: string[] = [];
    const off = await caches[1]!.subscribe('chan', (m) => got.push(m));
    const subject = new NatsBroadcast(links[0]!).subject('chan');
    links[0]!.nc.publish(subject, new Uint8Array([0xc1])); // never valid msgpack
    links[0]!.nc.publish(subject, encode({ not: 'a string' }));
    await caches[0]!.publish('chan', 'fine');
    await until(() => got.length > 0, 'the good message');
    expect(got).toEqual(['fine']);
    await off();
  });

  it('splits a stories event over the server max payload, and every story arrives', async () => {
    const bus = [new NatsBroadcast(links[0]!), new NatsBroadcast(links[1]!)];
    const received: LiveEvent[] = [];
    const off = await natsLiveEvents(bus[1]!).subscribe((e) => received.push(e));
    const story = (i: number): LiveStory => ({
      item: {
        article_id: `a${i}`, story_id: `s${i}`, title: `Story ${i} ${'x'.repeat(400)}`, summary: 'y'.repeat(300), thumbnail_url: null,
        publisher_name: 'P', published_at: '2026-01-01T00:00:00.000Z', source_url: `https://p.example/${i}`, category: 'world', region: 'us', coverage_count: 1,
      } as LiveStory['item'],
      regions: ['us'],
    });
    const stories = Array.from({ length: 2_000 }, (_, i) => story(i));
    expect(encode({ type: 'stories', stories }).length).toBeGreaterThan(bus[0]!.maxPayload);
    await natsLiveEvents(bus[0]!).publish({ type: 'stories', stories });
    const ids = () => received.flatMap((e) => (e.type === 'stories' ? e.stories.map((s) => s.item.story_id) : []));
    await until(() => ids().length === 2_000, 'all stories');
    expect(received.length).toBeGreaterThan(1);
    expect(new Set(ids()).size).toBe(2_000);
    await off();
  });
});
