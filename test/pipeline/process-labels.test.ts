import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/process.js';

/**
 * `newsagg process` input lines carry the entry's own `categories` and the `publisher_language`
 * besides the feed's `language`; a wire copy reports its original's categories.
 */

function line(o: Record<string, unknown>): string {
  return JSON.stringify(o) + '\n';
}

async function run(input: string): Promise<{ code: number; rows: Record<string, unknown>[]; stderr: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  const chunks: string[] = [];
  const errs: string[] = [];
  out.on('data', (c: Buffer) => chunks.push(c.toString()));
  err.on('data', (c: Buffer) => errs.push(c.toString()));
  const code = await main([], { stdin: Readable.from([input]), stdout: out, stderr: err });
  return { code, rows: chunks.join('').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>), stderr: errs.join('') };
}

const saleTitle = 'Harbour City agree record sale of the club to US investors';
const saleText =
  'Harbour City have agreed the record sale of the football club to a group of US investors, the club said on Monday, ending a ' +
  'year of talks. The new owners promised to fund a new stadium and keep the manager, who led the team to the league title last season.';

describe('newsagg process: categories, publisher_language, wire copies', () => {
  it('reads categories and both language priors from the input line', async () => {
    // one headline, untagged and tagged, in two runs (in one, the second would be a copy of the first)
    const untagged = await run(line({ id: 'a', url: 'https://general.example/a', title: 'Hartley signs a new two-year deal', published_at: '2026-11-20T10:00:00Z' }));
    const { code, rows } = await run([
      line({ id: 'b', url: 'https://general.example/b', title: 'Hartley signs a new two-year deal', published_at: '2026-11-20T10:01:00Z', categories: ['Sport', 'Rugby union'] }),
      line({ id: 'c', url: 'https://general.example/c', title: 'Día de Muertos parade draws record crowds in Mexico City', published_at: '2026-11-20T10:02:00Z' }),
      line({ id: 'd', url: 'https://general.example/d', title: 'Día de Muertos parade draws record crowds in Mexico', published_at: '2026-11-20T10:03:00Z', publisher_language: 'en' }),
      line({ id: 'e', url: 'https://general.example/e', title: 'Anne Hidalgo lance la campagne', published_at: '2026-11-20T10:04:00Z', language: 'fr', publisher_language: 'en' }),
    ].join(''));
    expect(code).toBe(0);
    const [b, c, d, e] = rows;
    expect(untagged.rows[0]!.category).not.toBe('sports');
    expect(b!.category).toBe('sports');
    expect(c!.language).toBe('pt');
    expect(d!.language).toBe('en');
    expect(e!.language).toBe('fr');
    // the output keeps its contract: the stored secondary category is not part of it
    for (const r of rows) expect(r).not.toHaveProperty('secondary_category');
  });

  it('categories that are not an array of strings refuse the line, and the run goes on', async () => {
    const { code, rows, stderr } = await run([
      line({ id: 'x1', url: 'https://general.example/x1', title: 'A headline', published_at: '2026-11-20T10:00:00Z', categories: 'Sport' }),
      line({ id: 'x2', url: 'https://general.example/x2', title: 'Another headline', published_at: '2026-11-20T10:00:00Z', categories: ['Sport', 7] }),
      line({ id: 'x3', url: 'https://general.example/x3', title: 'Hartley signs a new two-year deal', published_at: '2026-11-20T10:00:00Z', categories: [], publisher_language: null }),
    ].join(''));
    expect(code).toBe(1);
    expect(rows[0]).toMatchObject({ line: 1, id: 'x1', error: { code: 'INVALID_ARTICLE' } });
    expect((rows[0]!.error as { message: string }).message).toMatch(/^categories/);
    expect(rows[1]).toMatchObject({ line: 2, id: 'x2', error: { code: 'INVALID_ARTICLE' } });
    expect(rows[2]).toMatchObject({ id: 'x3' });
    expect(rows[2]!.error).toBeUndefined();
    expect(stderr).not.toMatch(/\bat .*\.(ts|js):\d+/);
  });

  it('a wire copy reports its original\'s categories, also from an earlier batch', async () => {
    const copies = Array.from({ length: 600 }, (_, i) =>
      line({ id: `f${i}`, url: `https://filler.example/${i}`, title: `Filler headline number ${i} about council budget plans in town ${i}`, published_at: '2026-11-20T10:30:00Z' }));
    const { code, rows } = await run([
      line({ id: 'o', url: 'https://wire.example/o', title: saleTitle, summary: saleText, published_at: '2026-11-20T10:00:00Z', categories: ['Business'] }),
      line({ id: 'c1', url: 'https://daily.example/c1', title: `${saleTitle} | The Daily`, summary: saleText, published_at: '2026-11-20T10:05:00Z' }),
      // more than one batch (512 lines) later: the original is remembered, not in the batch
      ...copies,
      line({ id: 'c2', url: 'https://herald.example/c2', title: `UPDATE 1-${saleTitle}`, summary: saleText, published_at: '2026-11-20T11:00:00Z' }),
      line({ id: 'own', url: 'https://herald.example/own', title: saleTitle.replace('Harbour City', 'Bay Rovers'), summary: saleText.replace(/Harbour City/g, 'Bay Rovers').replace('Monday', 'Friday').replace('US investors', 'a local businessman'), published_at: '2026-11-20T11:05:00Z' }),
    ].join(''));
    expect(code).toBe(0);
    const byId = new Map(rows.map((r) => [r.id as string, r]));
    expect(byId.get('o')).toMatchObject({ category: 'business' });
    expect(byId.get('c1')).toMatchObject({ duplicate_of: 'o', category: 'business' });
    expect(byId.get('c2')).toMatchObject({ duplicate_of: 'o', category: 'business' });
    // not a copy: its own words decide
    expect(byId.get('own')).toMatchObject({ duplicate_of: null, category: 'sports' });
  });
});
