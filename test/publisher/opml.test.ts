import { describe, expect, it } from 'vitest';
import { OpmlInvalidError } from '../../src/actors/publisher/errors.js';
import { buildOpml, feedUrl, parseOpml, type OpmlEntry } from '../../src/actors/publisher/opml.js';

const NESTED = `<?xml version="1.0"?>
<opml version="2.0">
  <head><title>My &amp; your feeds</title></head>
  <body>
    <outline text="News">
      <outline text="World">
        <outline text="Daily Planet" xmlUrl="https://planet.example/rss#top" htmlUrl="https://planet.example/" newsagg:country="us"/>
        <outline text="Broken" xmlUrl="ftp://planet.example/feed"/>
      </outline>
      <outline text="Tech Times" xmlUrl="https://tech.example/feed" category="/Technology/Gadgets" language="en"/>
    </outline>
    <outline text="Again" xmlUrl="https://planet.example/rss"/>
    <outline text="Folder without feeds"/>
    <outline title="Loose &lt;one&gt;" xmlurl="http://loose.example/atom.xml"/>
    <outline text="no scheme" xmlUrl="planet.example/rss"/>
  </body>
</opml>`;

describe('parseOpml', () => {
  const doc = parseOpml(NESTED);

  it('reads feeds with folders as categories, an outline\'s own category attribute first', () => {
    expect(doc.title).toBe('My & your feeds');
    expect(doc.feeds).toEqual([
      { name: 'Daily Planet', feed_url: 'https://planet.example/rss', site_url: 'https://planet.example/', category: 'world', folders: ['News', 'World'], country: 'US', language: null },
      { name: 'Tech Times', feed_url: 'https://tech.example/feed', site_url: null, category: 'gadgets', folders: ['News'], country: null, language: 'en' },
      { name: 'Loose <one>', feed_url: 'http://loose.example/atom.xml', site_url: null, category: null, folders: [], country: null, language: null },
    ]);
  });

  it('reports invalid URLs and duplicates without failing', () => {
    expect(doc.problems.map((p) => [p.position, p.reason, p.url])).toEqual([
      [4, 'invalid-url', 'ftp://planet.example/feed'],
      [6, 'duplicate', 'https://planet.example/rss'],
      [7, 'no-url', null],
      [9, 'invalid-url', 'planet.example/rss'],
    ]);
    expect(doc.outlines).toBe(9);
  });

  it('uses the category attribute when there is no folder', () => {
    const d = parseOpml('<opml><body><outline text="T" xmlUrl="https://t.example/f" category="/Technology/Gadgets,/Other"/></body></opml>');
    expect(d.feeds[0]!.category).toBe('gadgets');
  });

  it.each([
    ['not xml at all', 'hello'],
    ['an RSS feed', '<rss><channel/></rss>'],
    ['an HTML page', '<!DOCTYPE html><html><body>x</body></html>'],
  ])('throws OpmlInvalidError for %s', (_name, text) => {
    expect(() => parseOpml(text)).toThrow(OpmlInvalidError);
  });

  it('reads what it can from a document with broken quoting, and says so', () => {
    const broken = `<opml version="1.0"><head><title>t</title></head><body>
      <outline text="Good" xmlUrl="https://good.example/rss" type="rss" />
      <outline text="Bad "quote" here" description="a "b" c" xmlUrl="https://bad.example/rss" type="rss" />
      <outline text="Also good" xmlUrl="https://also.example/rss" type="rss" />
    </body></opml>`;
    const d = parseOpml(broken);
    expect(d.problems[0]).toMatchObject({ position: 0, reason: 'malformed-xml' });
    const urls = d.feeds.map((f) => f.feed_url);
    expect(urls).toContain('https://good.example/rss');
    expect(urls).toContain('https://also.example/rss');
  });

  it('never resolves external entities', () => {
    const evil = `<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY x SYSTEM "file:///etc/hostname">]><opml><body><outline text="&x;" xmlUrl="https://e.example/rss"/></body></opml>`;
    const d = parseOpml(evil);
    expect(d.feeds).toHaveLength(1);
    expect(d.feeds[0]!.name).toBe('&x;'); // left as written, the file is never read
  });

  it('reads 20,000 outlines', () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => `<outline text="F${i}" xmlUrl="https://f${i % 19_000}.example/rss"/>`).join('');
    const d = parseOpml(`<opml><body>${rows}</body></opml>`);
    expect(d.feeds).toHaveLength(19_000);
    expect(d.problems.filter((p) => p.reason === 'duplicate')).toHaveLength(1_000);
  });
});

describe('feedUrl', () => {
  it.each([
    ['https://a.example/rss', 'https://a.example/rss'],
    [' HTTP://A.EXAMPLE/rss#x ', 'http://a.example/rss'],
    ['javascript:alert(1)', null],
    ['file:///etc/passwd', null],
    ['/relative', null],
    ['', null],
  ])('%s → %s', (input, expected) => {
    expect(feedUrl(input)).toBe(expected);
  });
});

describe('OPML round trip', () => {
  it('export → import gives the same publishers back', () => {
    const list: OpmlEntry[] = [
      { name: 'A & B "News"', feed_url: 'https://ab.example/rss', site_url: 'https://ab.example/', category: 'world', country: 'GB', language: 'en' },
      { name: 'Tech <Daily>', feed_url: 'https://t.example/feed?x=1&y=2', site_url: null, category: 'technology', country: null, language: null },
      { name: 'Loose', feed_url: 'http://l.example/atom', site_url: null, category: null, country: 'FR', language: 'fr' },
      { name: 'Wire', feed_url: 'https://w.example/rss', site_url: null, category: 'world', country: 'US', language: null },
    ];
    const xml = buildOpml('Export', list, Date.UTC(2026, 0, 1));
    const back = parseOpml(xml);
    expect(back.problems).toEqual([]);
    expect(back.title).toBe('Export');
    const norm = (e: OpmlEntry) => ({ name: e.name, feed_url: e.feed_url, site_url: e.site_url ?? null, category: e.category ?? null, country: e.country ?? null, language: e.language ?? null });
    const sort = (a: { feed_url: string }, b: { feed_url: string }) => a.feed_url.localeCompare(b.feed_url);
    expect(back.feeds.map(norm).sort(sort)).toEqual(list.map(norm).sort(sort));
    expect(buildOpml('Export', back.feeds, Date.UTC(2026, 0, 1))).toBe(xml); // a second round changes nothing
  });
});
