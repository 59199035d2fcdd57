import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/process.js';

function line(o: Record<string, unknown>): string {
  return JSON.stringify(o) + '\n';
}

const quake = 'A magnitude 7.1 earthquake struck off the coast of northern Chile on Tuesday, shaking buildings in Antofagasta, officials said.';
const input = [
  line({ id: 'a', url: 'https://wire.example/a', title: 'Strong earthquake strikes northern Chile, tsunami warning issued', summary: quake, publisher: 'wire', published_at: '2026-11-20T10:00:00Z', publisher_country: 'US' }),
  line({ id: 'b', url: 'https://daily.example/b', title: 'Strong earthquake strikes northern Chile, tsunami warning issued | The Daily', summary: quake, publisher: 'daily', published_at: '2026-11-20T10:05:00Z', publisher_country: 'GB' }),
  line({ id: 'c', url: 'https://other.example/c', title: 'Chile earthquake: residents flee coastal towns after tsunami alert in Antofagasta', summary: 'Sirens sounded along the shore in Antofagasta after the magnitude 7.1 quake in northern Chile.', publisher: 'other', published_at: '2026-11-20T11:00:00Z' }),
  line({ id: 'd', url: 'https://sport.example/d', title: 'Arsenal beat Chelsea 2-1 in the London derby', summary: 'Arsenal came from behind to beat Chelsea in the Premier League.', publisher: 'sport', published_at: '2026-11-20T12:00:00Z', feed_category: 'Sport' }),
  line({ id: 'e', url: 'https://wire.example/a?utm_source=rss', title: 'Strong earthquake strikes northern Chile (updated)', publisher: 'wire', published_at: '2026-11-20T13:00:00Z' }),
].join('');

describe('newsagg process with enrichment and stories', () => {
  it('fills story_id, category, region, language and entities in input order', async () => {
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (c: Buffer) => chunks.push(c.toString()));
    const code = await main([], { stdin: Readable.from([input]), stdout: out, stderr: new PassThrough() });
    expect(code).toBe(0);
    const rows = chunks.join('').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.map((r) => r.id)).toEqual(['a', 'b', 'c', 'd', 'a']);
    const [a, b, c, d, e] = rows as Record<string, unknown>[];
    expect(b!.duplicate_of).toBe('a');
    expect(b!.story_id).toBe(a!.story_id);
    expect(c!.duplicate_of).toBeNull();
    expect(c!.story_id).toBe(a!.story_id); // same event, different wording
    expect(d!.story_id).not.toBe(a!.story_id);
    expect(d!.category).toBe('sports');
    expect(a).toMatchObject({ language: 'en', region: 'us' });
    expect(b).toMatchObject({ region: 'uk' });
    expect((a!.entities as { name: string }[]).map((x) => x.name)).toContain('Chile');
    expect((b!.entities as { name: string }[]).map((x) => x.name)).not.toContain('The Daily');
    expect(e!.story_id).toBe(a!.story_id); // a repeated URL is an update of article a
  });
});
