import { describe, expect, it } from 'vitest';
import { parseNewsSitemap, SitemapParseError } from '../../src/actors/html/sitemap.js';
import { newsSitemap, sitemapIndex } from './fixtures.js';

const NOW = Date.parse('2024-05-10T12:00:00Z');
const now = (): number => NOW;
const HOURS = 3600_000;
const ago = (h: number): string => new Date(NOW - h * HOURS).toISOString();

describe('parseNewsSitemap', () => {
  it('reads news entries, keeps the last two days, newest first', () => {
    const xml = newsSitemap([
      { loc: 'https://paper.example/a', title: 'Older &amp; fresh', date: ago(30), keywords: 'ports, weather' },
      { loc: 'https://paper.example/b', title: 'Newest', date: ago(1), lang: 'en-GB', name: 'Paper' },
      { loc: 'https://paper.example/c', title: 'Stale', date: ago(60) },
      { loc: 'https://paper.example/b', title: 'Duplicate loc', date: ago(2) },
      { loc: 'ftp://paper.example/d', title: 'Not http', date: ago(1) },
    ]);
    const parsed = parseNewsSitemap(xml, { now });
    expect(parsed.kind).toBe('urlset');
    expect(parsed.entries.map((e) => e.loc)).toEqual(['https://paper.example/b', 'https://paper.example/a']);
    expect(parsed.entries[0]).toMatchObject({ title: 'Newest', language: 'en', publication_name: 'Paper', publication_date: ago(1) });
    expect(parsed.entries[1]).toMatchObject({ title: 'Older & fresh', keywords: ['ports', 'weather'] });
  });

  it('honours maxAgeMs and keeps undated entries without inventing a date', () => {
    const xml = newsSitemap([{ loc: 'https://paper.example/x', title: 'Six hours', date: ago(6) }, { loc: 'https://paper.example/y' }]);
    const parsed = parseNewsSitemap(xml, { now, maxAgeMs: 3 * HOURS });
    expect(parsed.entries).toHaveLength(1);
    expect(parsed.entries[0]).toMatchObject({ loc: 'https://paper.example/y', publication_date: null, lastmod: null, title: null });
  });

  it('uses lastmod of plain sitemaps only for freshness', () => {
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
      <url><loc>https://paper.example/p1</loc><lastmod>${ago(5)}</lastmod></url>
      <url><loc>https://paper.example/p2</loc><lastmod>2020-01-01</lastmod></url>
      <url><loc>https://paper.example/p3</loc><lastmod>2020-01-01</lastmod></url></urlset>`;
    const entries = parseNewsSitemap(xml, { now }).entries;
    expect(entries.map((e) => e.loc)).toEqual(['https://paper.example/p1']);
    expect(entries[0]!.publication_date).toBeNull();
  });

  it('lists children of a sitemap index, dropping stale ones and resolving relative locs', () => {
    const xml = sitemapIndex([{ loc: '/news.xml', lastmod: ago(1) }, { loc: 'https://paper.example/2019.xml', lastmod: '2019-12-31' }, { loc: 'https://paper.example/pages.xml' }]);
    expect(parseNewsSitemap(xml, { now, baseUrl: 'https://paper.example/sitemap.xml' })).toEqual({
      kind: 'index', entries: [], sitemaps: ['https://paper.example/news.xml', 'https://paper.example/pages.xml'],
    });
  });

  it('accepts other namespace prefixes and CDATA titles', () => {
    const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:n="http://www.google.com/schemas/sitemap-news/0.9">
      <url><loc>https://paper.example/q</loc><n:news><n:publication><n:name>P</n:name><n:language>fr</n:language></n:publication>
      <n:publication_date>${ago(3)}</n:publication_date><n:title><![CDATA[Title <with> markup]]></n:title></n:news></url></urlset>`;
    expect(parseNewsSitemap(xml, { now }).entries[0]).toMatchObject({ title: 'Title markup', language: 'fr' });
  });

  it.each([
    ['an HTML page', '<!DOCTYPE html><html><body>hi</body></html>'],
    ['JSON', '{"urlset": []}'],
    ['empty', ''],
  ])('rejects %s with SitemapParseError', (_label, xml) => {
    expect(() => parseNewsSitemap(xml, { now })).toThrow(SitemapParseError);
  });

  it('stays bounded on an entity-expansion bomb and refuses absurd nesting', () => {
    const defs = ['<!ENTITY l0 "lol">', ...[1, 2, 3, 4, 5, 6].map((k) => `<!ENTITY l${k} "${`&l${k - 1};`.repeat(10)}">`)].join('');
    const bomb = `<?xml version="1.0"?><!DOCTYPE u [${defs}]><urlset><url><loc>https://a.example/x</loc><news><title>&l6;</title></news></url></urlset>`;
    let title: string | null | undefined;
    try {
      title = parseNewsSitemap(bomb, { now }).entries[0]?.title;
    } catch (err) {
      expect(err).toBeInstanceOf(SitemapParseError);
    }
    expect((title ?? '').length).toBeLessThan(10_000);
    const deep = `<urlset>${'<a>'.repeat(50_000)}${'</a>'.repeat(50_000)}</urlset>`;
    expect(() => parseNewsSitemap(deep, { now })).toThrow(SitemapParseError);
  });
});
