import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { expectMatchesOpenApi } from '../api/schema.js';
import { item, queued, seedStory, sentCount, startPushNode, until, type PushNode } from './harness.js';
import { LocalPushService } from './push-service.js';

/**
 * Push alerts end to end on one node and real PostgreSQL: a reader subscribes over the API with
 * keys a test "browser" made, live events (the breaking detector's announcements, written
 * stories) trigger alerts, and a local push service checks every request's VAPID signature and
 * decrypts its payload with the browser's private key.
 */
describe('push alerts', { timeout: 60_000 }, () => {
  let db: TestDb;
  let service: LocalPushService;
  let n: PushNode;

  beforeAll(async () => {
    db = await scratchPostgres();
    service = await LocalPushService.start();
    n = await startPushNode(db.url!, ['--push-quiet-hours', 'off']);
  });
  afterAll(async () => {
    await n?.stop();
    await service?.close();
    await db?.cleanup();
  });
  beforeEach(async () => {
    await db.sql.query('DELETE FROM push_subscriptions');
    n.clock.fixed = null;
    n.clock.offsetMs = 0;
  });

  it('serves the VAPID public key: the 65-byte uncompressed P-256 point, the same on every call', async () => {
    const a = await n.call('GET', '/v1/push/key');
    expect(a.status).toBe(200);
    expectMatchesOpenApi('/v1/push/key', 'get', 200, a.body);
    const point = Buffer.from(a.body.public_key, 'base64url');
    expect(point.length).toBe(65);
    expect(point[0]).toBe(4);
    expect((await n.call('GET', '/v1/push/key')).body.public_key).toBe(a.body.public_key);
    const { rows } = await db.sql.query<{ public_key: string }>('SELECT public_key FROM push_vapid');
    expect(rows).toEqual([{ public_key: a.body.public_key }]);
  });

  it('delivers a breaking alert once, signed with the VAPID key and decryptable by the browser', async () => {
    const key = (await n.call('GET', '/v1/push/key')).body.public_key as string;
    const wants = service.subscribe('breaking-a');
    const other = service.subscribe('no-breaking');
    const r = await n.subscribe('reader-breaking-0001', wants, { breaking: true });
    expect(r.status).toBe(201);
    expectMatchesOpenApi('/v1/me/push', 'post', 201, r.body);
    expect((await n.subscribe('reader-other-000001', other, { breaking: false, topics: ['sports'] })).status).toBe(201);

    const story = item('st_quake', 12, { title: 'Strong earthquake shakes the coast', publisher_name: 'Wire Service' });
    const event = { type: 'breaking' as const, story: { ...story, breaking_since: new Date().toISOString() }, regions: ['apac'], active: true };
    await n.publish(event);
    // every API node hears the same announcement: a second evaluation must not alert again
    await n.publish(event);
    const [d] = await until('the breaking push', () => (service.accepted('breaking-a').length > 0 ? service.accepted('breaking-a') : null));
    await n.settled();
    expect(service.accepted('breaking-a')).toHaveLength(1);
    expect(service.all('no-breaking')).toHaveLength(0);

    expect(d!.error).toBeNull();
    expect(d!.vapid!.k).toBe(key);
    expect(d!.vapid!.aud).toBe(service.url);
    expect(d!.vapid!.sub).toBe('mailto:webpush@newsagg.invalid');
    expect(d!.vapid!.exp * 1000).toBeGreaterThan(Date.now());
    expect(d!.vapid!.exp * 1000).toBeLessThanOrEqual(Date.now() + 24 * 3_600_000);
    expect(d!.headers.urgency).toBe('high');
    expect(Number(d!.headers.ttl)).toBeGreaterThan(0);
    expect(d!.headers.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
    expect(d!.payload).toMatchObject({
      kind: 'breaking', title: 'Strong earthquake shakes the coast', body: 'Breaking news · Wire Service',
      url: '/story/st_quake', tag: 'story-st_quake', story_id: 'st_quake',
    });
    expect(String(d!.payload!.stop_url)).toMatch(/^\/v1\/me\/push\?stop=/);
    expect(await sentCount(n.node, 'sent')).toBeGreaterThanOrEqual(1);

    // a cooled-down story alerts nobody
    await n.publish({ ...event, story: { ...event.story, story_id: 'st_cold' }, active: false });
    expect(await queued(db.sql)).toEqual([]);
    expect(service.all('breaking-a')).toHaveLength(1);
  });

  it('alerts on new articles in a followed story, at most once per throttle period', async () => {
    await seedStory(db.sql, { id: 'st_follow', count: 3, category: 'politics' });
    const sub = service.subscribe('follower');
    expect((await n.subscribe('reader-follower-0001', sub, { stories: ['st_follow'] })).status).toBe(201);
    const stories = (count: number) => ({ type: 'stories' as const, stories: [{ item: item('st_follow', count, { category: 'politics' }), regions: ['eu'] }] });

    await n.publish(stories(3)); // nothing new since the follow
    expect(await queued(db.sql)).toEqual([]);
    expect(service.all('follower')).toHaveLength(0);
    await n.publish(stories(4));
    await until('the update push', () => service.accepted('follower').length === 1);
    await n.settled();
    expect(service.accepted('follower')[0]!.payload).toMatchObject({ kind: 'story', body: 'A story you follow: 4 articles now', url: '/story/st_follow' });
    expect(service.accepted('follower')[0]!.headers.urgency).toBe('normal');

    await n.publish(stories(5)); // within the hour
    // an alert would be in the queue until its push is answered, or answered already
    expect(await queued(db.sql)).toEqual([]);
    expect(service.all('follower')).toHaveLength(1);
    n.clock.offsetMs = 61 * 60_000;
    await n.publish(stories(6));
    await until('the second update push', () => service.accepted('follower').length === 2);
    expect(service.accepted('follower')[1]!.payload).toMatchObject({ kind: 'story', body: 'A story you follow: 6 articles now' });
  });

  it('alerts once when a story of a followed topic or place reaches the threshold', async () => {
    await seedStory(db.sql, { id: 'st_lyon', count: 4, category: 'science', places: ['FR'], entities: [{ name: 'Lyon', type: 'place' }] });
    await seedStory(db.sql, { id: 'st_mars', count: 4, category: 'science' });
    const topic = service.subscribe('science');
    const place = service.subscribe('france');
    expect((await n.subscribe('reader-topic-000001', topic, { topics: ['science'], threshold: 5 })).status).toBe(201);
    expect((await n.subscribe('reader-place-000001', place, { places: ['France'], threshold: 5 })).status).toBe(201);
    const stories = (id: string, count: number) => ({ type: 'stories' as const, stories: [{ item: item(id, count, { category: 'science', publisher_name: 'Science Daily' }), regions: ['eu'] }] });

    await n.publish(stories('st_lyon', 4));
    expect(await queued(db.sql)).toEqual([]);
    expect(service.all('science')).toHaveLength(0);
    await n.publish(stories('st_lyon', 5));
    await until('both topic pushes', () => service.accepted('science').length === 1 && service.accepted('france').length === 1);
    await n.settled();
    expect(service.accepted('france')[0]!.payload).toMatchObject({ kind: 'topic', body: '5 articles · Science Daily', story_id: 'st_lyon' });
    await n.publish(stories('st_lyon', 9));
    expect(await queued(db.sql)).toEqual([]);
    expect(service.all('science')).toHaveLength(1);
    expect(service.all('france')).toHaveLength(1);
    // a science story not placed in France reaches the topic's follower only
    await n.publish(stories('st_mars', 6));
    await until('the second topic push', () => service.accepted('science').length === 2);
    await n.settled();
    expect(service.accepted('france')).toHaveLength(1);
  });

  it('keeps a reader within its daily cap (the same alert on two devices counts once) and silent in quiet hours', async () => {
    const day = Date.UTC(2031, 4, 6); // a fixed day, 00:00 UTC
    n.clock.fixed = day + 12 * 3_600_000;
    const phone = service.subscribe('cap-phone');
    const laptop = service.subscribe('cap-laptop');
    const night = service.subscribe('cap-sydney');
    const prefs = { breaking: true, daily_cap: 2, quiet_hours: { start: '22:00', end: '07:00' }, tz_offset_minutes: 0 };
    expect((await n.subscribe('reader-capped-00001', phone, prefs)).status).toBe(201);
    expect((await n.subscribe('reader-capped-00001', laptop, prefs)).status).toBe(201);
    // 12:00 UTC is 22:00 in UTC+10: quiet there
    expect((await n.subscribe('reader-sydney-00001', night, { ...prefs, tz_offset_minutes: 600 })).status).toBe(201);
    const breaking = (id: string) => ({ type: 'breaking' as const, story: { ...item(id, 9), breaking_since: new Date(n.clock.fixed!).toISOString() }, regions: ['us'], active: true });
    const quiet0 = await sentCount(n.node, 'quiet');
    const capped0 = await sentCount(n.node, 'capped');

    for (const id of ['st_b1', 'st_b2', 'st_b3']) await n.publish(breaking(id));
    await n.settled();
    for (const device of ['cap-phone', 'cap-laptop']) expect(service.accepted(device).map((d) => d.payload!.story_id)).toEqual(['st_b1', 'st_b2']);
    expect(service.all('cap-sydney')).toHaveLength(0);
    expect((await sentCount(n.node, 'capped')) - capped0).toBe(2);
    expect((await sentCount(n.node, 'quiet')) - quiet0).toBe(3);

    // 23:30 UTC the same day: quiet for the first reader too; 09:30 the next morning in Sydney
    n.clock.fixed = day + 23.5 * 3_600_000;
    await n.publish(breaking('st_b4'));
    await until('the Sydney push', () => service.accepted('cap-sydney').length === 1);
    await n.settled();
    expect(service.accepted('cap-phone')).toHaveLength(2);
    expect((await sentCount(n.node, 'quiet')) - quiet0).toBe(5);
    // the next day at 08:00 the count starts again (18:00 in Sydney)
    n.clock.fixed = day + 32 * 3_600_000;
    await n.publish(breaking('st_b5'));
    await until('the next day\'s pushes', () => service.accepted('cap-phone').length === 3 && service.accepted('cap-laptop').length === 3 && service.accepted('cap-sydney').length === 2);
    expect(service.accepted('cap-phone').map((d) => d.payload!.story_id)).toEqual(['st_b1', 'st_b2', 'st_b5']);
    expect(service.accepted('cap-sydney').map((d) => d.payload!.story_id)).toEqual(['st_b4', 'st_b5']);
  });

  it('removes a subscription its push service says is gone (410), with its queued alerts', async () => {
    const gone = service.subscribe('gone', () => ({ status: 410 }));
    const r = await n.subscribe('reader-gone-0000001', gone, { breaking: true });
    expect(r.status).toBe(201);
    const gone0 = await sentCount(n.node, 'gone');
    await n.publish({ type: 'breaking', story: { ...item('st_gone', 9), breaking_since: new Date().toISOString() }, regions: ['us'], active: true });
    await until('the subscription removed', async () => (await db.sql.query('SELECT 1 FROM push_subscriptions WHERE id = $1', [r.body.id])).rowCount === 0);
    await n.drained();
    expect(service.all('gone')).toHaveLength(1);
    expect((await sentCount(n.node, 'gone')) - gone0).toBe(1);
    expect(await queued(db.sql)).toEqual([]);
    expect((await n.call('GET', '/v1/me/push', 'reader-gone-0000001')).body).toEqual({ subscriptions: [] });
  });

  it('stops a subscription with the stop URL of its notification, and a reader with DELETE', async () => {
    const sub = service.subscribe('stopper');
    const other = service.subscribe('stopper-2');
    expect((await n.subscribe('reader-stopper-00001', sub, { breaking: true })).status).toBe(201);
    expect((await n.subscribe('reader-stopper-00001', other, { breaking: true })).status).toBe(201);
    const list = await n.call('GET', '/v1/me/push', 'reader-stopper-00001');
    expectMatchesOpenApi('/v1/me/push', 'get', 200, list.body);
    expect(list.body.subscriptions.map((s: { endpoint: string }) => s.endpoint).sort()).toEqual([sub.endpoint, other.endpoint].sort());
    await n.publish({ type: 'breaking', story: { ...item('st_stop', 9), breaking_since: new Date().toISOString() }, regions: ['us'], active: true });
    const [d] = await until('the push', () => (service.accepted('stopper').length ? service.accepted('stopper') : null));
    const stopUrl = String(d!.payload!.stop_url);

    expect((await n.call('DELETE', `${stopUrl.slice(0, -2)}xx`)).status).toBe(204); // a wrong token stops nothing
    expect((await n.call('GET', '/v1/me/push', 'reader-stopper-00001')).body.subscriptions).toHaveLength(2);
    expect((await n.call('DELETE', stopUrl)).status).toBe(204); // no reader needed: the token is the authority
    expect((await n.call('GET', '/v1/me/push', 'reader-stopper-00001')).body.subscriptions.map((s: { endpoint: string }) => s.endpoint)).toEqual([other.endpoint]);
    expect((await n.call('DELETE', '/v1/me/push', 'reader-stopper-00001')).status).toBe(204);
    expect((await n.call('GET', '/v1/me/push', 'reader-stopper-00001')).body.subscriptions).toEqual([]);
    // forgetting the reader forgets its subscriptions too
    expect((await n.subscribe('reader-stopper-00001', sub, { breaking: true })).status).toBe(201);
    expect((await n.call('DELETE', '/v1/me', 'reader-stopper-00001')).status).toBe(204);
    expect((await db.sql.query('SELECT 1 FROM push_subscriptions')).rowCount).toBe(0);
  });

  it('refuses endpoints outside the rules and malformed subscriptions with 4xx codes', async () => {
    const ok = service.subscribe('valid');
    const bad = async (body: unknown) => {
      const r = await n.call('POST', '/v1/me/push', 'reader-bad-00000001', body);
      expectMatchesOpenApi('/v1/feed', 'get', 400, r.body);
      return [r.status, r.body.error.code];
    };
    expect(await bad({ endpoint: 'https://10.1.2.3/push/x', keys: ok.keys })).toEqual([400, 'invalid_endpoint']);
    expect(await bad({ endpoint: 'https://169.254.169.254/latest', keys: ok.keys })).toEqual([400, 'invalid_endpoint']);
    expect(await bad({ endpoint: 'ftp://127.0.0.1/push', keys: ok.keys })).toEqual([400, 'invalid_endpoint']);
    expect(await bad({ endpoint: 'https://user:pw@127.0.0.1/push', keys: ok.keys })).toEqual([400, 'invalid_endpoint']);
    expect(await bad({ endpoint: ok.endpoint, keys: { p256dh: ok.keys.p256dh.slice(0, -4) + 'AAAA', auth: ok.keys.auth } })).toEqual([400, 'invalid_keys']);
    expect(await bad({ endpoint: ok.endpoint, keys: { p256dh: ok.keys.p256dh, auth: 'AAAA' } })).toEqual([400, 'invalid_keys']);
    expect(await bad({ endpoint: ok.endpoint, keys: ok.keys, breaking: 'yes' })).toEqual([400, 'invalid_body']);
    expect(await bad({ endpoint: ok.endpoint, keys: ok.keys, topics: ['weather'] })).toEqual([400, 'invalid_category']);
    expect(await bad({ endpoint: ok.endpoint, keys: ok.keys, stories: Array.from({ length: 101 }, (_, i) => `st_${i}`) })).toEqual([400, 'too_many_interests']);
    expect(await bad({ endpoint: ok.endpoint, keys: ok.keys, quiet_hours: { start: '25:00', end: '07:00' } })).toEqual([400, 'invalid_quiet_hours']);
    expect(await bad({ endpoint: ok.endpoint, keys: ok.keys, daily_cap: 11 })).toEqual([400, 'invalid_daily_cap']);
    expect(await bad({ endpoint: ok.endpoint, keys: ok.keys, admin: true })).toEqual([400, 'invalid_body']);
    expect(await bad({ endpoint: ok.endpoint, keys: ok.keys, places: ['Nowhereville Qqq'] })).toEqual([400, 'unknown_place']);
    const big = await n.call('POST', '/v1/me/push', 'reader-bad-00000001', { endpoint: ok.endpoint, keys: ok.keys, places: ['x'.repeat(9000)] });
    expect(big.status).toBe(413);
    expect((await db.sql.query('SELECT 1 FROM push_subscriptions')).rowCount).toBe(0);
    // the same endpoint posted again is the same subscription with new preferences
    const first = await n.subscribe('reader-bad-00000001', ok, { breaking: true });
    const again = await n.subscribe('reader-bad-00000001', ok, { breaking: false, stories: ['st_x'] });
    expect([first.status, again.status]).toEqual([201, 200]);
    expect(again.body).toMatchObject({ id: first.body.id, breaking: false, stories: ['st_x'], threshold: 10, daily_cap: 10, quiet_hours: null, tz_offset_minutes: 0 });
  });
});
