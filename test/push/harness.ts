import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PUSH_DELIVERER } from '../../src/actors/push/index.js';
import { upsertArticles } from '../../src/actors/store/articles.js';
import type { FeedItem } from '../../src/actors/store/feed-items.js';
import { liveEventsFor, type LiveEvent } from '../../src/actors/store/live-events.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { upsertStories } from '../../src/actors/store/stories.js';
import { resolveConfig } from '../../src/config.js';
import { startNode, type Node } from '../../src/node.js';
import { apiComponent } from '../../src/roles/api.js';
import { pushComponent, type PushComponent } from '../../src/roles/push.js';
import type { Sql } from '../../src/runtime/sql.js';
import type { BrowserSubscription } from './push-service.js';

/** A node with the API and push alerts on a test database, its clock in the test's hands. */
export interface PushNode {
  node: Node;
  push: PushComponent;
  dir: string;
  clock: { offsetMs: number; fixed: number | null };
  /** a request as reader `token` (bearer) */
  call(method: string, path: string, token?: string | null, body?: unknown): Promise<{ status: number; body: any; text: string }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  subscribe(token: string, sub: BrowserSubscription, prefs: Record<string, unknown>): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** publishes a live event the way the detector and the story writer do, and waits until push evaluated it */
  publish(event: LiveEvent): Promise<void>;
  /** waits for the deliverer to finish what it is doing (its metrics are then up to date) */
  drained(): Promise<void>;
  /** waits until the queue is empty and the deliverer drained */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/** `databaseUrl` null: the embedded database in the node's data dir. */
export async function startPushNode(databaseUrl: string | null, extraArgs: string[] = [], clock = { offsetMs: 0, fixed: null as number | null }): Promise<PushNode> {
  const dir = mkdtempSync(join(tmpdir(), 'newsagg-push-'));
  const config = resolveConfig(
    ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, ...(databaseUrl ? ['--database-url', databaseUrl] : []), '--fetch-allowlist', '127.0.0.1', '--push-allow-http', '--log-level', 'warn', '--rate-limit-rps', '1000', '--rate-limit-burst', '1000', ...extraArgs],
    {},
  );
  const now = () => (clock.fixed ?? Date.now()) + clock.offsetMs;
  const push = pushComponent({ now, pollMs: 50 });
  const node = await startNode(config, { components: [push, apiComponent({ push })] });
  const events = liveEventsFor(node.cache, node.broadcast, node.log);
  const call: PushNode['call'] = async (method, path, token, body) => {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const r = await fetch(`${node.url}${path}`, { method, headers, ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}) });
    const text = await r.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    return { status: r.status, body: parsed, text };
  };
  return {
    node,
    push,
    dir,
    clock,
    call,
    subscribe: (token, sub, prefs) => call('POST', '/v1/me/push', token, { endpoint: sub.endpoint, expirationTime: null, keys: sub.keys, ...prefs }),
    async publish(event) {
      await events.publish(event);
      // the in-process bus delivers on a later turn of the event loop; then the evaluation chain settles
      await new Promise((r) => setImmediate(r));
      await push.idle();
    },
    async drained() {
      await node.system.ask(PUSH_DELIVERER, { type: 'drain' }, 20_000);
    },
    async settled() {
      await until('the queue to empty', async () => (await queued(node.sql)).length === 0);
      await node.system.ask(PUSH_DELIVERER, { type: 'drain' }, 20_000);
    },
    async stop() {
      await node.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A feed item of a story, as live events carry it. */
export function item(story: string, count: number, over: Partial<FeedItem> = {}): FeedItem {
  return {
    article_id: `a-${story}`, story_id: story, title: `Headline of ${story}`, summary: null, thumbnail_url: null, publisher_id: 'p1',
    publisher_name: 'Publisher One', published_at: new Date().toISOString(), source_url: `https://p1.example/${story}`,
    click_url: `/r/a-${story}`, category: 'world', region: 'us', coverage_count: count, ...over,
  };
}

/** Writes a story and its lead article (with places and entities) the way the store does. */
export async function seedStory(sql: Sql, s: { id: string; count: number; category: string; places?: string[]; entities?: { name: string; type: string }[] }): Promise<void> {
  const at = new Date().toISOString();
  await addPublishers(sql, [{ id: 'p1', name: 'Publisher One', feed_url: 'https://p1.example/feed' }]);
  await upsertArticles(sql, [{
    id: `a-${s.id}`, url: `https://p1.example/${s.id}`, url_hash: `uh-${s.id}`, simhash: null, title: `Headline of ${s.id}`, snippet: null,
    thumbnail_url: null, publisher_id: 'p1', published_at: at, category: s.category, region: 'eu', language: 'en', story_id: s.id,
    duplicate_of: null, entities: s.entities ?? [], places: s.places ?? [],
  }]);
  await upsertStories(sql, [{
    id: s.id, title: `Headline of ${s.id}`, lead_article_id: `a-${s.id}`, article_count: s.count, publisher_count: 1, first_seen: at,
    updated_at: at, category: s.category, regions: ['eu'], entities: [], score: 0,
  }]);
}

/** Polls `probe` until it gives something truthy (no timing is asserted: only the outcome). */
export async function until<T>(what: string, probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Rows in the push queue. */
export async function queued(sql: Sql): Promise<{ id: string; attempts: number; not_before_ms: number; created_ms: number; subscription_id: string }[]> {
  const { rows } = await sql.query<{ id: string; attempts: number; not_before_ms: number; created_ms: number; subscription_id: string }>(
    `SELECT id::text, attempts, (extract(epoch FROM not_before) * 1000)::float8 AS not_before_ms,
            (extract(epoch FROM created_at) * 1000)::float8 AS created_ms, subscription_id FROM push_queue ORDER BY id`,
  );
  return rows;
}

/** The value of `newsagg_push_sent_total{outcome}`. */
export async function sentCount(node: Node, outcome: string): Promise<number> {
  const m = await node.metrics.registry.getSingleMetric('newsagg_push_sent_total')?.get();
  return m?.values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
}
