import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { degradedSources, failureReason, reasonList, SourceHealth, type FailureReason } from '../../src/actors/publisher/source-health.js';
import { resolveConfig } from '../../src/config.js';
import { startNode, type Node } from '../../src/node.js';
import { componentsFor } from '../../src/roles/index.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';

/**
 * A first run on real news without network access must say so: the node whose every source fails
 * is "degraded" on /readyz (still 200: it serves what it has, and nothing an orchestrator could
 * restart would fix the network), logs one warning with the reason, and the reason is in words.
 */
describe('why sources fail', () => {
  it.each([
    ['FETCH_NETWORK: //www.bbc.co.uk: getaddrinfo ENOTFOUND www.bbc.co.uk', 'dns'],
    ['FETCH_NETWORK: //x: getaddrinfo EAI_AGAIN x', 'dns'],
    ['FETCH_NETWORK: //x: connect ENETUNREACH 1.2.3.4:443', 'network'],
    ['FETCH_NETWORK: //x: connect ECONNREFUSED 1.2.3.4:443', 'refused'],
    ['FETCH_TIMEOUT: fetch of https://x/feed exceeded its total deadline', 'timeout'],
    ['FETCH_NETWORK: //x: unable to verify the first certificate', 'tls'],
    ['SSRF_BLOCKED: address 10.0.0.1 is private', 'blocked'],
    ['FETCH_HTTP_ERROR: https://x/feed answered 404', 'http_error'],
    ['FETCH_RATE_LIMITED: https://x/feed answered 429', 'rate_limited'],
    ['PARSE_MALFORMED: not a feed', 'not_a_feed'],
    ['ROBOTS_DISALLOWED: /feed', 'robots'],
    ['EMIT_FAILED: the ingest log is full', 'other'],
    [null, 'other'],
  ])('%j is %s', (err, want) => {
    expect(failureReason(err)).toBe(want);
  });

  it('a node is degraded when every source polled lately failed, and min(3, running) of them at least', () => {
    let t = 0;
    const h = new SourceHealth({ now: () => t });
    const dns = { code: 'FETCH_NETWORK', message: '//a: getaddrinfo ENOTFOUND a' };
    expect(degradedSources(h.summary(), 10)).toBeNull();
    h.polled('https://a/feed', dns);
    h.polled('https://b/feed', dns);
    expect(degradedSources(h.summary(), 10)).toBeNull(); // two failures before the others are polled: no verdict
    expect(degradedSources(h.summary(), 2)).toMatch(/^every source this node polled lately failed \(2\); 2 of them: host names do not resolve/);
    h.polled('https://c/feed', { code: 'FETCH_TIMEOUT', message: 'slow' });
    expect(h.summary()).toMatchObject({ ok: 0, failing: 3, reasons: [{ reason: 'dns', publishers: 2 }, { reason: 'timeout', publishers: 1 }] });
    expect(degradedSources(h.summary(), 10)).not.toBeNull();
    // one source answering is enough to be well
    h.polled('https://a/feed', null);
    expect(h.summary()).toMatchObject({ ok: 1, failing: 2 });
    expect(degradedSources(h.summary(), 10)).toBeNull();
    // a node that runs no publishers any more has no verdict
    h.polled('https://a/feed', dns);
    expect(degradedSources(h.summary(), 0)).toBeNull();
    // polls older than a day are forgotten
    t = 2 * 86_400_000;
    expect(h.summary()).toMatchObject({ ok: 0, failing: 0 });
  });

  it('lists reasons most first, each with words to act on', () => {
    const list = reasonList(new Map<FailureReason, number>([['timeout', 1], ['dns', 5], ['other', 0]]));
    expect(list.map((r) => [r.reason, r.publishers])).toEqual([['dns', 5], ['timeout', 1]]);
    expect(list[0]!.message).toMatch(/off-line/);
  });
});

describe('a node whose every source fails', { timeout: 120_000 }, () => {
  let db: TestDb;
  let dir: string;
  let node: Node;
  const lines: { level: number; msg: string }[] = [];

  beforeAll(async () => {
    db = await scratchPostgres();
    dir = await mkdtemp(join(tmpdir(), 'newsagg-offline-'));
    // three real-looking sources on hosts no DNS answers for (.invalid never resolves)
    const opml = join(dir, 'feeds.opml');
    await writeFile(opml, `<?xml version="1.0"?><opml version="2.0"><head><title>t</title></head><body>${['one', 'two', 'three']
      .map((h) => `<outline type="rss" text="${h}" xmlUrl="https://${h}.newsagg-test.invalid/feed"/>`).join('')}</body></opml>`);
    const log = pino({ level: 'info' }, new Writable({ write: (c: Buffer, _e, cb) => (lines.push(JSON.parse(c.toString())), cb()) }));
    const config = resolveConfig(['--port', '0', '--host', '127.0.0.1', '--data-dir', dir, '--database-url', db.url!, '--opml', opml, '--workers', '1'], {});
    node = await startNode(config, { log, components: componentsFor(config) });
  }, 60_000);
  afterAll(async () => {
    await node?.stop();
    await db?.cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  it('says degraded on /readyz (200, with the reason), warns once in the log, and the first-run data says why', async () => {
    let ready: { status: string; degraded?: Record<string, string>; checks: Record<string, string> } | null = null;
    for (let i = 0; i < 300; i++) {
      const r = await fetch(`${node.url}/readyz`);
      expect(r.status).toBe(200);
      ready = (await r.json()) as typeof ready;
      if (ready!.status === 'degraded' && lines.some((l) => l.msg.startsWith('sources failing'))) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    expect(ready).toMatchObject({ status: 'degraded', checks: { sql: 'ok', ingest: 'ok', sources: 'degraded' } });
    expect(ready!.degraded!.sources).toMatch(/every source this node polled lately failed \(3\); 3 of them: host names do not resolve/);
    const warnings = lines.filter((l) => l.msg.startsWith('sources failing'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);

    // what the first-run and admin pages read (the publishers' stored state, any node's)
    let sources: { total: number; failing: number; ok: number; offline: boolean; reasons: { reason: string }[] } | null = null;
    for (let i = 0; i < 100; i++) {
      sources = ((await (await fetch(`${node.url}/v1/catalogue`)).json()) as { sources: typeof sources }).sources;
      if (sources!.failing === 3) break;
      await new Promise((res) => setTimeout(res, 200));
    }
    expect(sources).toMatchObject({ total: 3, failing: 3, ok: 0, offline: true, reasons: [{ reason: 'dns', publishers: 3 }] });
  });
});
