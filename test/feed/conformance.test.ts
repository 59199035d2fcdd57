import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/actors/feed/parse.js';

/**
 * Conformance cases in the style of the feedparser suite, one small document each, for the
 * classes real feeds get wrong or use rarely: CDF, iTunes and Media RSS extensions, entities,
 * ill-formed documents a reader still shows, and dates in reduced or local forms.
 */

const BASE = 'http://example.com/feed';
const parse = (xml: string) => parseFeed(xml, { baseUrl: BASE });
const rss = (channel: string, ns = '') => `<rss version="2.0"${ns}><channel>${channel}</channel></rss>`;
const ITUNES = ' xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"';
const MEDIA = ' xmlns:media="http://search.yahoo.com/mrss/"';

describe('CDF (Channel Definition Format)', () => {
  const cdf = `<?xml version="1.0"?>
<CHANNEL HREF="http://example.com/" LASTMOD="2004-04-06T23:05:43-05:00">
  <TITLE>Example &amp; channel</TITLE>
  <ABSTRACT>What the channel is about</ABSTRACT>
  <LOGO HREF="/logo.gif" STYLE="IMAGE"/>
  <ITEM HREF="http://example.com/items/1" LASTMOD="2004-04-07T10:00:00Z">
    <TITLE>First item</TITLE>
    <ABSTRACT>Summary with 1 &lt; 2</ABSTRACT>
  </ITEM>
  <ITEM HREF="/items/2"><TITLE>Second item</TITLE></ITEM>
</CHANNEL>`;

  it.each([
    ['feed title', (f: ReturnType<typeof parse>) => f.feed.title, 'Example & channel'],
    ['feed link from HREF', (f: ReturnType<typeof parse>) => f.feed.link, 'http://example.com/'],
    ['feed description from ABSTRACT', (f: ReturnType<typeof parse>) => f.feed.description, 'What the channel is about'],
    ['feed updated from LASTMOD', (f: ReturnType<typeof parse>) => f.feed.updated, '2004-04-07T04:05:43.000Z'],
    ['feed image from LOGO', (f: ReturnType<typeof parse>) => f.feed.image, 'http://example.com/logo.gif'],
    ['entry title', (f: ReturnType<typeof parse>) => f.entries[0]!.title, 'First item'],
    ['entry link from HREF', (f: ReturnType<typeof parse>) => f.entries[0]!.link, 'http://example.com/items/1'],
    ['entry summary is escaped HTML', (f: ReturnType<typeof parse>) => f.entries[0]!.summary, 'Summary with 1 &lt; 2'],
    ['entry updated from LASTMOD', (f: ReturnType<typeof parse>) => f.entries[0]!.updated, '2004-04-07T10:00:00.000Z'],
    ['relative HREF resolved', (f: ReturnType<typeof parse>) => f.entries[1]!.link, 'http://example.com/items/2'],
  ])('%s', (_name, read, expected) => {
    expect(read(parse(cdf))).toBe(expected);
  });

  it('reads lower-case CDF and reports the format', () => {
    const f = parse('<channel href="http://example.com/"><title>t</title><item href="http://example.com/a"><title>A</title></item></channel>');
    expect(f.meta.format).toBe('cdf');
    expect(f.entries[0]!.link).toBe('http://example.com/a');
  });

  it('a bare RSS 0.9x <channel> is still RSS', () => {
    const f = parse('<channel><title>t</title><item><title>A</title><link>http://example.com/a</link></item></channel>');
    expect(f.meta.format).toBe('rss09');
    expect(f.entries[0]!.link).toBe('http://example.com/a');
  });
});

describe('iTunes extension', () => {
  it.each([
    ['core element names in any case', rss('<TiTlE>Example title</TiTlE><ITEM><Title>Ep</Title><LINK>http://example.com/1</LINK><PubDate>Thu, 01 Jan 2004 19:48:21 GMT</PubDate></ITEM>', ITUNES),
      (f: ReturnType<typeof parse>) => [f.feed.title, f.entries[0]!.title, f.entries[0]!.link, f.entries[0]!.published],
      ['Example title', 'Ep', 'http://example.com/1', '2004-01-01T19:48:21.000Z']],
    ['nested item categories', rss('<item><itunes:category text="Technology"><itunes:category text="Gadgets"/></itunes:category></item>', ITUNES),
      (f: ReturnType<typeof parse>) => f.entries[0]!.categories, ['Technology', 'Gadgets']],
    ['keywords split on commas', rss('<item><itunes:keywords>alpha, beta,gamma</itunes:keywords></item>', ITUNES),
      (f: ReturnType<typeof parse>) => f.entries[0]!.categories, ['alpha', 'beta', 'gamma']],
    ['channel image (href)', rss('<itunes:image href="http://example.com/logo.jpg"/>', ITUNES), (f: ReturnType<typeof parse>) => f.feed.image, 'http://example.com/logo.jpg'],
    ['channel image (url)', rss('<itunes:image url="http://example.com/logo.jpg"/>', ITUNES), (f: ReturnType<typeof parse>) => f.feed.image, 'http://example.com/logo.jpg'],
    ['channel image as itunes:link rel=image', rss('<itunes:link rel="image" href="http://example.com/logo.jpg"/>', ITUNES),
      (f: ReturnType<typeof parse>) => f.feed.image, 'http://example.com/logo.jpg'],
    ['item image as itunes:link rel=image', rss('<item><itunes:link rel="image" href="http://example.com/ep.jpg"></itunes:link></item>', ITUNES),
      (f: ReturnType<typeof parse>) => f.entries[0]!.thumbnail, 'http://example.com/ep.jpg'],
    ['item author', rss('<item><itunes:author>Ann Host</itunes:author></item>', ITUNES), (f: ReturnType<typeof parse>) => f.entries[0]!.author, 'Ann Host'],
    ['item summary', rss('<item><itunes:summary>About &lt;this&gt;</itunes:summary></item>', ITUNES),
      (f: ReturnType<typeof parse>) => f.entries[0]!.summary, 'About &lt;this&gt;'],
    ['item subtitle when there is no summary', rss('<item><itunes:subtitle>Short</itunes:subtitle></item>', ITUNES),
      (f: ReturnType<typeof parse>) => f.entries[0]!.summary, 'Short'],
    ['channel subtitle as description', rss('<itunes:subtitle>A show</itunes:subtitle>', ITUNES), (f: ReturnType<typeof parse>) => f.feed.description, 'A show'],
  ])('%s', (_name, xml, read, expected) => {
    expect(read(parse(xml))).toEqual(expected);
  });

  it('element names stay case-sensitive without the iTunes namespace', () => {
    expect(parse(rss('<TiTlE>Example title</TiTlE><title>Real</title>')).feed.title).toBe('Real');
  });
});

describe('Media RSS extension', () => {
  it.each([
    ['media:title when there is no title', rss('<item><media:title>Video title</media:title></item>', MEDIA), (f: ReturnType<typeof parse>) => f.entries[0]!.title, 'Video title'],
    ['media:title inside media:group', rss('<item><media:group><media:title>Grouped</media:title></media:group></item>', MEDIA),
      (f: ReturnType<typeof parse>) => f.entries[0]!.title, 'Grouped'],
    ['title wins over media:title', rss('<item><title>Plain</title><media:title>Media</media:title></item>', MEDIA), (f: ReturnType<typeof parse>) => f.entries[0]!.title, 'Plain'],
    ['categories and keywords', rss('<item><media:category scheme="urn:x">News/World</media:category><media:keywords>k1, k2</media:keywords></item>', MEDIA),
      (f: ReturnType<typeof parse>) => f.entries[0]!.categories, ['News/World', 'k1', 'k2']],
    ['credit as author when there is none', rss('<item><media:credit role="author">Ann Writer</media:credit><media:credit role="producer">P</media:credit></item>', MEDIA),
      (f: ReturnType<typeof parse>) => f.entries[0]!.author, 'Ann Writer'],
    ['thumbnail', rss('<item><media:thumbnail url="http://example.com/t.jpg" width="100"/></item>', MEDIA), (f: ReturnType<typeof parse>) => f.entries[0]!.thumbnail, 'http://example.com/t.jpg'],
    ['description as summary', rss('<item><media:description>Desc</media:description></item>', MEDIA), (f: ReturnType<typeof parse>) => f.entries[0]!.summary, 'Desc'],
    ['a custom prefix for the namespace', rss('<item><m:title>Prefixed</m:title></item>', ' xmlns:m="http://search.yahoo.com/mrss/"'),
      (f: ReturnType<typeof parse>) => f.entries[0]!.title, 'Prefixed'],
  ])('%s', (_name, xml, read, expected) => {
    expect(read(parse(xml))).toEqual(expected);
  });
});

describe('entities', () => {
  it.each([
    ['&lrm;', 'testing \u200e entity'],
    ['&nbsp;', 'testing \u00a0 entity'],
    ['&thinsp;', 'testing \u2009 entity'],
    ['&#x1d54f;', 'testing \u{1d54f} entity'],
    ['&#X1D54F;', 'testing \u{1d54f} entity'],
    ['&#8217;', 'testing \u2019 entity'],
    ['&#150;', 'testing \u2013 entity'],
    ['&hearts;', 'testing \u2665 entity'],
    ['&alefsym;', 'testing \u2135 entity'],
    ['&doesnotexist;', 'testing &doesnotexist; entity'],
    ['&amp;amp;', 'testing & entity'],
  ])('%s in a title', (entity, expected) => {
    expect(parse(`<rss><channel><title>testing ${entity} entity</title></channel></rss>`).feed.title).toBe(expected);
  });

  it('&amp; in an attribute is resolved', () => {
    expect(parse('<feed xmlns="http://www.w3.org/2005/Atom"><link rel="alternate" href="http://domain/?a=1&amp;b=2"/></feed>').feed.link).toBe('http://domain/?a=1&b=2');
  });

  it('an entity declared in the DOCTYPE is expanded', () => {
    expect(parse('<!DOCTYPE rss [<!ENTITY name "Example">]><rss><channel><title>&name; news</title></channel></rss>').feed.title).toBe('Example news');
  });
});

describe('ill-formed documents a reader still shows', () => {
  it.each([
    ['an unterminated closing tag at the end', '<feed xmlns="http://www.w3.org/2005/Atom"><link rel="alternate" href="http://domain/?a=1&amp;b=2" />\n</feed\n',
      (f: ReturnType<typeof parse>) => f.feed.link, 'http://domain/?a=1&b=2'],
    ['a document cut inside its second item', '<rss version="2.0"><channel><title>T</title><item><title>A</title><link>http://e.com/a</link></item><item><title>B</ti',
      (f: ReturnType<typeof parse>) => f.entries.map((e) => e.title), ['A']],
    ['a stray < in text', '<rss version="2.0"><channel><title>a < b</title><item><title>1 <2</title></item></channel></rss>',
      (f: ReturnType<typeof parse>) => [f.feed.title, f.entries[0]!.title], ['a < b', '1 <2']],
    ['missing closing tags at the end', '<rss version="2.0"><channel><title>T</title><item><title>A</title><link>http://e.com/a</link></item>',
      (f: ReturnType<typeof parse>) => f.entries[0]!.link, 'http://e.com/a'],
    ['a bare ampersand', '<rss version="2.0"><channel><item><title>A & B</title></item></channel></rss>', (f: ReturnType<typeof parse>) => f.entries[0]!.title, 'A & B'],
  ])('%s', (_name, xml, read, expected) => {
    expect(read(parse(xml))).toEqual(expected);
  });

  it('a document that yields no complete element stays malformed', () => {
    expect(() => parse('<rss version="2.0"><channel><item')).toThrow(expect.objectContaining({ code: 'PARSE_MALFORMED' }));
  });
});

describe('dates in feeds, reduced and local forms', () => {
  it.each([
    ['<dc:date>2003-12-31</dc:date>', '2003-12-31T00:00:00.000Z'],
    ['<dc:date>20031231</dc:date>', '2003-12-31T00:00:00.000Z'],
    ['<dc:date>2003-335</dc:date>', '2003-12-01T00:00:00.000Z'],
    ['<dc:date>-03-12</dc:date>', '2003-12-01T00:00:00.000Z'],
    ['<pubDate>Κυρ, 11 Ιούλ 2004 12:00:00 EST</pubDate>', '2004-07-11T17:00:00.000Z'],
    ['<pubDate>2004-05-25 오후 11:23:17</pubDate>', '2004-05-25T14:23:17.000Z'],
    ['<pubDate>2004-július-13T9:15-05:00</pubDate>', '2004-07-13T14:15:00.000Z'],
    ['<pubDate>Fri, 2006/09/15 08:19:53 EDT</pubDate>', '2006-09-15T12:19:53.000Z'],
  ])('%s', (el, expected) => {
    const f = parse(rss(`<item><title>t</title>${el}</item>`, ' xmlns:dc="http://purl.org/dc/elements/1.1/"'));
    expect(f.entries[0]!.published).toBe(expected);
  });
});
