import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { item, queued, sentCount, startPushNode, until, type PushNode } from './harness.js';
import { LocalPushService } from './push-service.js';

/**
 * The delivery queue is a table: an alert the push service asked to wait for (503 with
 * Retry-After) is still there after its node stops, and the next node on the same database
 * delivers it once, signed with the same VAPID key (the deployment's, from the database).
 */
describe('a queued push across a node restart', { timeout: 60_000 }, () => {
  let db: TestDb;
  let service: LocalPushService;
  let first: PushNode | null = null;
  let second: PushNode | null = null;

  beforeAll(async () => {
    db = await scratchPostgres();
    service = await LocalPushService.start();
  });
  afterAll(async () => {
    await first?.stop().catch(() => undefined);
    await second?.stop();
    await service?.close();
    await db?.cleanup();
  });

  it('is delivered once by the next node after the first stopped', async () => {
    first = await startPushNode(db.url!, ['--push-quiet-hours', 'off']);
    const key = (await first.call('GET', '/v1/push/key')).body.public_key as string;
    // the push service is busy for an hour on the first try
    const sub = service.subscribe('restart', (i) => (i === 0 ? { status: 503, headers: { 'retry-after': '3600' } } : { status: 201 }));
    expect((await first.subscribe('reader-restart-00001', sub, { breaking: true })).status).toBe(201);
    await first.publish({ type: 'breaking', story: { ...item('st_restart', 20), breaking_since: new Date().toISOString() }, regions: ['eu'], active: true });
    await until('the first attempt', () => service.all('restart').length === 1);
    const [row] = await until('the alert back in the queue', async () => {
      const rows = await queued(db.sql);
      return rows.length === 1 && rows[0]!.attempts === 1 && rows[0]!.not_before_ms > rows[0]!.created_ms ? rows : null;
    });
    // Retry-After is honoured: not before an hour from the answer
    expect(row!.not_before_ms - row!.created_ms).toBeGreaterThanOrEqual(3600_000);
    await first.drained();
    expect(await sentCount(first.node, 'retry')).toBe(1);
    await first.stop();
    first = null;
    expect(await queued(db.sql)).toHaveLength(1);

    // the next node's clock is past the wait
    second = await startPushNode(db.url!, ['--push-quiet-hours', 'off'], { offsetMs: 2 * 3_600_000, fixed: null });
    expect((await second.call('GET', '/v1/push/key')).body.public_key).toBe(key);
    await until('the delivery', () => service.accepted('restart').length === 1);
    await second.settled();
    expect(service.all('restart').map((d) => d.status)).toEqual([503, 201]);
    const d = service.accepted('restart')[0]!;
    expect(d.vapid!.k).toBe(key);
    expect(d.payload).toMatchObject({ kind: 'breaking', story_id: 'st_restart', url: '/story/st_restart' });
    expect(await sentCount(second.node, 'sent')).toBe(1);
  });
});

describe('push alerts on the embedded database', { timeout: 60_000 }, () => {
  it('delivers a breaking alert from a node with no database URL (PGlite)', async () => {
    const service = await LocalPushService.start();
    const n = await startPushNode(null, ['--push-quiet-hours', 'off']);
    try {
      const sub = service.subscribe('embedded');
      expect((await n.subscribe('reader-embedded-0001', sub, { breaking: true, stories: ['st_emb'] })).status).toBe(201);
      const event = { type: 'breaking' as const, story: { ...item('st_emb', 8), breaking_since: new Date().toISOString() }, regions: ['eu'], active: true };
      await n.publish(event);
      await n.publish({ type: 'stories', stories: [{ item: item('st_emb', 9), regions: ['eu'] }] });
      await until('both pushes', () => service.accepted('embedded').length === 2);
      await n.settled();
      expect(service.accepted('embedded').map((d) => d.payload!.kind)).toEqual(['breaking', 'story']);
      expect(service.accepted('embedded').every((d) => d.error === null)).toBe(true);
    } finally {
      await n.stop();
      await service.close();
    }
  });
});
