import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addPublishers, listPublishers } from '../../src/actors/store/publishers.js';
import { resolveConfig } from '../../src/config.js';
import { startNode, type Node } from '../../src/node.js';
import { fetcherComponent } from '../../src/roles/fetcher.js';
import { ingestComponent } from '../../src/roles/ingest.js';
import { publishersComponent } from '../../src/roles/publishers.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { FeedFarm, type FarmFeed } from '../helpers/feed-farm.js';
import { SHARED_NATS_URL, uniquePrefix } from '../helpers/nats.js';

const DAY = 86_400_000;

/**
 * Feed input that once blocked or lost entries, through a whole node (real PostgreSQL; in server
 * mode the JetStream ingest log on the shared NATS, whose 1 MiB max payload once refused a whole
 * batch): a 1 MB headline among three good items (the three were never stored and the feed was
 * fetched again every minute), a burst of 150 new items against the default step of 100 (the
 * other 50 were never stored), links the parser refuses (they vanished without a record), and
 * entries older than retention (skipped, and counted).
 */
describe.each(['embedded', 'server'] as const)('feed input through a node (%s ingest log)', { timeout: 240_000 }, (mode) => {
  let farm: FeedFarm;
  let db: TestDb;
  let node: Node;
  let dir: string;
  let prefix: string;
  const feeds: Record<'big' | 'burst' | 'links' | 'old', FarmFeed> = {} as never;
  const good: string[] = [];
  let bigLink = '';

  beforeAll(async () => {
    farm = await new FeedFarm({ hosts: 4, feedsPerHost: 1, keep: 200, seed: `input-${mode}` }).start();
    [feeds.big, feeds.burst, feeds.links, feeds.old] = farm.feeds as [FarmFeed, FarmFeed, FarmFeed, FarmFeed];
    const now = Date.now();
    good.push(...farm.publish(feeds.big, 3, now - 60_000).map((i) => i.link));
    bigLink = farm.publish(feeds.big, 1, now - 30_000, () => ({ title: `Megabyte ${'headline '.repeat(120_000)}` }))[0]!.link;
    farm.publish(feeds.burst, 150, now - 120_000);
    farm.publish(feeds.links, 1, now - 60_000);
    farm.publish(feeds.links, 3, now - 50_000, (_i, k) => ({ link: ['javascript:alert(document.cookie)', 'file:///etc/passwd', `https://links.farm.example/${'long/'.repeat(2_000)}`][k]! }));
    farm.publish(feeds.old, 2, now - 40 * DAY);
    farm.publish(feeds.old, 1, now - 60_000);
    db = await scratchPostgres();
    await addPublishers(db.sql, Object.entries(feeds).map(([id, f]) => ({ id, name: `Farm ${id}`, feed_url: f.url })));
    dir = mkdtempSync(join(tmpdir(), 'newsagg-input-'));
    prefix = uniquePrefix('input');
    const args = ['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--fetch-allowlist', '127.0.0.0/8', '--log-level', 'warn'];
    if (mode === 'server') args.push('--nats-url', SHARED_NATS_URL, '--nats-prefix', prefix);
    const fetcher = fetcherComponent({ crawlDelayMs: 0 });
    const ingest = ingestComponent({ fetcher });
    const publishers = publishersComponent({ emit: (a) => ingest.ingest(a), fetcher, firstPollSpreadMs: 1_000 });
    node = await startNode(resolveConfig(args, {}), { components: [fetcher, ingest, publishers] });
  }, 120_000);

  afterAll(async () => {
    await node?.stop();
    await farm?.close();
    await db?.cleanup();
    if (dir) rmSync(dir, { recursive: true, force: true });
    if (mode === 'server' && prefix) {
      const nc = await connect({ servers: SHARED_NATS_URL });
      const jsm = await nc.jetstreamManager();
      for (const s of [`${prefix}_INGEST`, `${prefix}_INGEST_DEAD`]) await jsm.streams.delete(s).catch(() => undefined);
      await nc.close();
    }
  });

  const q = async <T>(text: string, params: unknown[] = []): Promise<T[]> => (await db.sql.query<T & Record<string, unknown>>(text, params)).rows;
  const storedOf = async (f: FarmFeed) => (await q<{ url: string; title: string }>('SELECT url, title FROM articles WHERE url = ANY($1::text[])', [f.items.map((i) => i.link)]));
  const skipped = async () => Number(/^newsagg_entries_skipped_total\{reason="retention"\} (\d+)/m.exec(await node.metrics.text())?.[1] ?? 0);

  it('stores every good entry, trims the huge one, records refused links and counts what retention skips', async () => {
    const end = Date.now() + 180_000;
    for (;;) {
      const [big, burst, links, old] = await Promise.all([storedOf(feeds.big), storedOf(feeds.burst), storedOf(feeds.links), storedOf(feeds.old)]);
      const rejected = await q<{ n: number }>("SELECT count(*)::int AS n FROM rejected_articles WHERE publisher_id = 'links'");
      if (big.length >= 4 && burst.length >= 150 && links.length >= 1 && rejected[0]!.n >= 3 && old.length >= 1 && (await skipped()) >= 2) break;
      if (Date.now() > end) {
        throw new Error(`timed out: big ${big.length}/4, burst ${burst.length}/150, links ${links.length}/1 + ${rejected[0]!.n}/3 rejected, old ${old.length}/1, skipped ${await skipped()}/2`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }

    // the three good items beside a 1 MB headline are stored, and the big one with its headline cut
    const big = await storedOf(feeds.big);
    expect(big.map((a) => a.url).sort()).toEqual([...good, bigLink].sort());
    expect(big.find((a) => a.url === bigLink)!.title.length).toBeLessThanOrEqual(500);
    // the feed did not fail and is not fetched again every minute
    const pubs = new Map((await listPublishers(db.sql, { limit: 10 })).map((p) => [p.id, p]));
    expect(pubs.get('big')).toMatchObject({ failures: 0, circuit_reason: null });
    expect(feeds.big.requests).toBe(1);

    // all 150 of the burst, each once
    const burst = await q<{ n: number; urls: number }>(
      "SELECT count(*)::int AS n, count(DISTINCT url)::int AS urls FROM articles WHERE url LIKE $1", [`https://${feeds.burst.name}.farm.example/%`]);
    expect(burst[0]).toEqual({ n: 150, urls: 150 });
    expect(pubs.get('burst')).toMatchObject({ failures: 0, entries_skipped: 0 });

    // refused links: a rejected_articles row each, with the reason
    const rejected = await q<{ url: string; reason: string; code: string; message: string }>(
      "SELECT url, reason, code, message FROM rejected_articles WHERE publisher_id = 'links' ORDER BY url");
    expect(rejected.map((r) => [r.reason, r.code])).toEqual([['invalid_url', 'INVALID_URL'], ['invalid_url', 'INVALID_URL'], ['invalid_url', 'INVALID_URL']]);
    expect(rejected.map((r) => r.url.slice(0, 20))).toEqual(['file:///etc/passwd', 'https://links.farm.e', 'javascript:alert(doc']);
    expect(rejected[1]!.message).toMatch(/URL longer than 4096 characters/);
    expect(rejected[2]!.message).toMatch(/not an absolute http\(s\) URL/);

    // older than retention: skipped on purpose, and counted (metric and the admin view)
    expect((await storedOf(feeds.old)).map((a) => a.url)).toEqual([feeds.old.items[0]!.link]);
    expect(await skipped()).toBe(2);
    expect(pubs.get('old')).toMatchObject({ entries_skipped: 2, failures: 0 });
  });
});
