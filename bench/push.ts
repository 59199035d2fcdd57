/**
 * Push alerts benchmark (`npm run bench -- push`): one API node on a scratch PostgreSQL database
 * and a local push service on loopback (test/push/push-service.ts, accepting without decrypting;
 * one message in fifty is decrypted and its VAPID JWT verified, to prove the traffic is real).
 *
 * - `enqueue_ms`: a breaking story announced to NEWSAGG_BENCH_PUSH_SUBSCRIBERS (2,000)
 *   subscriptions: the live event until every alert is in the queue (one SQL statement).
 * - `alerts_per_s`: from the announcement until the queue is empty and every push was answered,
 *   through the deliverer (claims of 128, 32 sends in flight, quiet hours and the daily cap checked
 *   per alert); beside it `reference_posts_per_s`, the same number of bare undici POSTs of a
 *   same-sized body to the same service with 8 in flight, and their ratio.
 * - `encrypt_per_s`: request builds alone as the sender makes them (aes128gcm for the subscription;
 *   the VAPID JWT is signed once per push service and reused), one thread; `sign_per_s`: VAPID
 *   headers signed afresh each time, as web-push does by default.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { Agent } from 'undici';
import webPush from 'web-push';
import { generateVapidKeys } from '../src/actors/push/index.js';
import { queued, startPushNode, until, item } from '../test/push/harness.js';
import { LocalPushService } from '../test/push/push-service.js';
import { scratchPostgres } from '../test/helpers/db.js';

type Figures = Record<string, number | string | boolean>;
const SUBSCRIBERS = Number(process.env.NEWSAGG_BENCH_PUSH_SUBSCRIBERS ?? 2000);

export async function run(): Promise<Figures> {
  const db = await scratchPostgres();
  const service = await LocalPushService.start({ checkEvery: 50 });
  const n = await startPushNode(db.url!, ['--push-quiet-hours', 'off', '--push-daily-cap', '1000']);
  try {
    const subs = Array.from({ length: SUBSCRIBERS }, (_, i) => service.subscribe(`b${i}`));
    // subscribed through the API, 500 requests at a time
    for (let i = 0; i < subs.length; i += 500) {
      await Promise.all(subs.slice(i, i + 500).map((s, j) => n.subscribe(`bench-reader-${String(i + j).padStart(8, '0')}`, s, { breaking: true })));
    }
    const t0 = performance.now();
    await n.publish({ type: 'breaking', story: { ...item('st_bench', 40), breaking_since: new Date().toISOString() }, regions: ['us'], active: true });
    const enqueueMs = performance.now() - t0;
    await until('every push answered', () => service.deliveries.length >= SUBSCRIBERS, 600_000);
    await until('the queue to empty', async () => (await queued(db.sql)).length === 0, 600_000);
    const deliverS = (performance.now() - t0) / 1000;
    const bad = service.deliveries.filter((d) => d.status !== 201).length;

    // the reference: bare POSTs of a same-sized body, 8 in flight
    const agent = new Agent({ connections: 16 });
    const body = randomBytes(service.deliveries[0]?.headers['content-length'] ? Number(service.deliveries[0].headers['content-length']) : 300);
    const url = new URL(subs[0]!.endpoint);
    let next = 0;
    const r0 = performance.now();
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < SUBSCRIBERS) {
        next++;
        const res = await agent.request({ origin: url.origin, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body });
        await res.body.dump();
      }
    }));
    const refS = (performance.now() - r0) / 1000;
    await agent.close();

    // request builds alone
    const vapid = generateVapidKeys();
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const target = { endpoint: 'https://push.example.net/x', keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') } };
    const payload = JSON.stringify({ kind: 'breaking', title: 'x'.repeat(120), body: 'Breaking news · Publisher', url: '/story/st_x', tag: 'story-st_x', story_id: 'st_x', stop_url: '/v1/me/push?stop=abc.def' });
    const builds = 2000;
    const e0 = performance.now();
    for (let i = 0; i < builds; i++) webPush.generateRequestDetails(target, payload, { vapidDetails: null, TTL: 60 });
    const encS = (performance.now() - e0) / 1000;
    const s0 = performance.now();
    for (let i = 0; i < builds; i++) webPush.getVapidHeaders('https://push.example.net', 'mailto:a@b.invalid', vapid.publicKey, vapid.privateKey, 'aes128gcm');
    const signS = (performance.now() - s0) / 1000;

    return {
      subscribers: SUBSCRIBERS,
      enqueue_ms: enqueueMs,
      alerts_per_s: SUBSCRIBERS / deliverS,
      reference_posts_per_s: SUBSCRIBERS / refS,
      alerts_ratio_vs_bare_posts: SUBSCRIBERS / deliverS / (SUBSCRIBERS / refS),
      encrypt_per_s: builds / encS,
      sign_per_s: builds / signS,
      refused: bad,
    };
  } finally {
    await n.stop();
    await service.close();
    await db.cleanup();
  }
}
