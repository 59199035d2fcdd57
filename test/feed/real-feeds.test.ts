import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FeedParseError } from '../../src/actors/feed/errors.js';
import { parseFeed } from '../../src/actors/feed/parse.js';

/**
 * Robustness over the real feeds in the shared data folder: every file parses or fails with a
 * coded FeedParseError, none crashes. Skipped (with a message) when the folder is absent.
 * Durations are reported, not asserted (speed belongs in bench/parse.ts); the generous bound
 * below only catches a runaway parse. It is on the CPU time the parse used, not on wall time,
 * so a machine busy with other work cannot trip it.
 */

const DATA = resolve(process.cwd(), process.env.NEWSAGG_DATA ?? '../shared/data', 'rss-feeds');
const present = existsSync(DATA);
if (!present) console.warn(`[feed] ${DATA} is missing: skipping the real-feed robustness test`);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return /\.(xml|rss|atom|rdf|json)$/i.test(name) ? [p] : [];
  });
}

const HANG_CPU_MS = 10_000;

/** CPU time (user + system) this process has used, in ms */
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

describe.skipIf(!present)('real feeds (shared data)', () => {
  it('every file parses or fails with a clear coded error', () => {
    const list = files(DATA);
    expect(list.length).toBeGreaterThan(100);
    const failures: string[] = [];
    const slow: string[] = [];
    let parsed = 0;
    let entries = 0;
    for (const file of list) {
      const t0 = performance.now();
      const c0 = cpuMs();
      try {
        const f = parseFeed(readFileSync(file), { baseUrl: 'https://feeds.example.org/feed.xml' });
        parsed++;
        entries += f.entries.length;
        for (const e of f.entries) {
          // contract: links absolute http(s), dates ISO instants, titles plain text
          if (e.link !== null) expect(e.link).toMatch(/^https?:\/\//);
          if (e.published !== null) expect(e.published).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
          if (e.title !== null) expect(e.title).not.toMatch(/<\/?(?:p|div|b|i|a|span|br)\b[^>]*>/i);
          expect(Array.isArray(e.categories)).toBe(true);
        }
      } catch (err) {
        if (!(err instanceof FeedParseError)) throw new Error(`${file} crashed: ${String(err)}`, { cause: err });
        expect(err.code).toMatch(/^PARSE_/);
        failures.push(`${file.slice(DATA.length + 1)}: ${err.code}`);
      }
      const ms = performance.now() - t0;
      expect(cpuMs() - c0).toBeLessThan(HANG_CPU_MS);
      if (ms > 1000) slow.push(`${file.slice(DATA.length + 1)} ${Math.round(ms)} ms`);
    }
    console.info(`[feed] real feeds: ${parsed}/${list.length} parsed, ${entries} entries; refused: ${failures.join(', ') || 'none'}; over 1 s: ${slow.join(', ') || 'none'}`);
    // the collection holds five non-feeds (four HTML pages, one OPML file); every real feed must parse
    expect(failures.length).toBeLessThanOrEqual(5);
    expect(failures.every((f) => f.endsWith('PARSE_UNSUPPORTED'))).toBe(true);
  });
});
