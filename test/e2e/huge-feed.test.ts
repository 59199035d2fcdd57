import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config.js';
import { startNode, type Node } from '../../src/node.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { fetcherComponent } from '../../src/roles/fetcher.js';
import { ingestComponent } from '../../src/roles/ingest.js';
import { publishersComponent } from '../../src/roles/publishers.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { FeedFarm, renderFarmRss, type FarmItem } from '../helpers/feed-farm.js';

const CAP = 100;
const MIN = 60_000;
const DAY = 1_440 * MIN;

/**
 * One feed of 4.6 MB (11,000 entries, one a minute over 7.6 days) beside healthy ones, on a node
 * that keeps one day: the node reads the newest 8,192 entries of the document, skips those older
 * than retention, and stores every other one in steps of the cap (the cap bounds a step, not
 * what is stored); the skipped ones are counted by reason. The healthy feeds are ingested in full,
 * and memory stays bounded (the same feed had once added 99,999 articles in a minute and pushed
 * a node to 1.25 GB).
 */
describe('a huge feed beside healthy ones', { timeout: 300_000 }, () => {
  let farm: FeedFarm;
  let db: TestDb;
  let node: Node;
  let dir: string;
  let huge: FarmItem[];
  let heapBefore = 0;
  let started = 0;

  beforeAll(async () => {
    farm = await new FeedFarm({ hosts: 4, feedsPerHost: 3, keep: 20, seed: 'huge' }).start();
    const now = (started = Date.now());
    for (const f of farm.feeds.slice(1)) farm.publish(f, 20, now - 60_000);
    // the first feed holds 11,000 entries (4.6 MB, under the fetcher's 5 MiB cap), newest scattered through the document
    const big = farm.feeds[0]!;
    huge = Array.from({ length: 11_000 }, (_, i) => ({
      guid: `huge-${i}`, title: `Bulletin ${i}: ${'archive entry '.repeat(3)}`, link: `https://huge.farm.example/${i}`,
      description: `Archived bulletin ${i} ${'with a long body of text '.repeat(6)}`, pubDate: now - 60_000 - ((i * 7919) % 11_000) * 60_000,
    }));
    big.items = huge;
    big.body = renderFarmRss(big);
    expect(big.body.length).toBeGreaterThan(4_000_000);
    expect(big.body.length).toBeLessThan(5 * 1024 * 1024);
    db = await scratchPostgres();
    await addPublishers(db.sql, farm.feeds.map((f, i) => ({ id: `farm-${i}`, name: `Farm ${f.name}`, feed_url: f.url })));
    dir = mkdtempSync(join(tmpdir(), 'newsagg-huge-'));
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--fetch-allowlist', '127.0.0.0/8', '--log-level', 'warn', '--max-entries-per-poll', String(CAP), '--retention-days', '1'], {});
    const fetcher = fetcherComponent({ crawlDelayMs: 0 });
    const ingest = ingestComponent({ fetcher });
    const publishers = publishersComponent({ emit: (a) => ingest.ingest(a), fetcher, firstPollSpreadMs: 1_000 });
    global.gc?.();
    heapBefore = process.memoryUsage().heapUsed;
    node = await startNode(config, { components: [fetcher, ingest, publishers] });
  }, 180_000);

  afterAll(async () => {
    await node?.stop();
    await farm?.close();
    await db?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('ingests the healthy feeds in full, and every entry of the huge one within retention and the document limit', async () => {
    const healthy = farm.feeds.slice(1).flatMap((f) => f.items.map((i) => i.link));
    const end = Date.now() + 240_000;
    const count = async (urls: string[]) => (await node.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM articles WHERE url = ANY($1::text[])', [urls])).rows[0]!.n;
    const skipped = async () => {
      const text = await node.metrics.text();
      const of = (reason: string) => Number(new RegExp(`^newsagg_entries_skipped_total\\{reason="${reason}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
      return { retention: of('retention'), document_limit: of('document_limit') };
    };
    const hugeStored = async () => (await node.sql.query<{ url: string }>("SELECT url FROM articles WHERE url LIKE 'https://huge.farm.example/%'")).rows.map((r) => r.url);
    // done when every huge entry is stored or counted as skipped
    for (;;) {
      const s = await skipped();
      if ((await count(healthy)) === healthy.length && (await hugeStored()).length + s.retention + s.document_limit >= huge.length) break;
      if (Date.now() > end) throw new Error('timed out waiting for the feeds to be ingested');
      await new Promise((r) => setTimeout(r, 250));
    }
    const s = await skipped();
    const stored = await hugeStored();
    expect(stored.length + s.retention + s.document_limit).toBe(huge.length);
    // the oldest 2,808 were past the 8,192 read from one document; of the rest, those within a
    // day of the poll were stored (the poll came a little after the items were dated: the
    // boundary is a minute wide), the others skipped as older than retention
    expect(s.document_limit).toBe(huge.length - 8_192);
    const byAge = [...huge].sort((a, b) => b.pubDate - a.pubDate);
    const within = byAge.filter((i) => i.pubDate > started - DAY + 5 * MIN).map((i) => i.link);
    const storedSet = new Set(stored);
    expect(within.filter((u) => !storedSet.has(u))).toEqual([]);
    expect(stored.length).toBeGreaterThan(CAP * 10);
    expect(stored.length).toBeLessThanOrEqual(within.length + 10);
    expect(new Set(stored).size).toBe(stored.length);
    expect(farm.feeds[0]!.requests).toBeGreaterThanOrEqual(1);
    // readiness includes ingest progress
    const ready = await fetch(`${node.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: Record<string, string> }).checks).toMatchObject({ sql: 'ok', cache: 'ok', ingest: 'ok' });
    // bounded: about 1,400 articles, not eleven thousand, went through this process
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(400 * 1024 * 1024);
  });
});
