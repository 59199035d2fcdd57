import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/actors/feed/parse.js';

const BASE = 'https://news.example.com/feeds/main.xml';

const RSS2 = `<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/"
     xmlns:content="http://purl.org/rss/1.0/modules/content/">
<channel>
  <title>Example News</title>
  <link>https://news.example.com/</link>
  <description>All the news &amp; more</description>
  <language>en-GB</language>
  <pubDate>Sun, 19 May 2024 09:00:00 GMT</pubDate>
  <lastBuildDate>Sun, 19 May 2024 10:00:00 GMT</lastBuildDate>
  <ttl>15</ttl>
  <image><url>/logo.png</url><title>Example</title><link>https://news.example.com/</link></image>
  <atom:link rel="self" href="https://news.example.com/feeds/main.xml"/>
  <atom:link rel="hub" href="https://hub.example.net/"/>
  <skipHours><hour>1</hour><hour>2</hour></skipHours>
  <skipDays><day>Saturday</day><day>Sunday</day></skipDays>
  <item>
    <title>Council approves budget</title>
    <link>https://news.example.com/a/1</link>
    <guid isPermaLink="false">000123</guid>
    <pubDate>Sun, 19 May 2024 08:30:00 +0100</pubDate>
    <description>Short &lt;b&gt;summary&lt;/b&gt;</description>
    <content:encoded><![CDATA[<p>Full <em>text</em></p>]]></content:encoded>
    <author>desk@example.com (City Desk)</author>
    <category>Politics</category><category>Local</category><category>Politics</category>
    <enclosure url="https://cdn.example.com/a1.mp3" type="audio/mpeg" length="12345"/>
  </item>
  <item>
    <guid>https://news.example.com/a/2</guid>
    <title>Second</title>
    <dc:creator>Ann Author</dc:creator>
    <dc:date>2024-05-18T12:00:00Z</dc:date>
  </item>
</channel>
</rss>`;

const RSS091 = `<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">
<rss version="0.91"><channel><title>Old &eacute;cole</title><link>http://old.example.com/</link>
<description>d</description><language>fr</language>
<item><title>Caf&eacute; story</title><link>http://old.example.com/1</link><description>It&rsquo;s here</description></item>
</channel></rss>`;

const RSS092 = `<rss version="0.92"><channel><title>T</title><link>http://e.example.com/</link>
<item><description>Only a description</description><enclosure url="http://e.example.com/x.mp3" length="5" type="audio/mpeg"/></item>
</channel></rss>`;

const RDF10 = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"
  xmlns:dc="http://purl.org/dc/elements/1.1/">
  <channel rdf:about="https://rdf.example.org/">
    <title>RDF Site</title><link>https://rdf.example.org/</link><description>desc</description>
    <dc:language>de</dc:language><dc:date>2024-05-19T10:00:00+02:00</dc:date>
    <image rdf:resource="https://rdf.example.org/logo.gif"/>
    <items><rdf:Seq><rdf:li rdf:resource="https://rdf.example.org/1"/></rdf:Seq></items>
  </channel>
  <image rdf:about="https://rdf.example.org/logo.gif"><url>https://rdf.example.org/logo.gif</url></image>
  <item rdf:about="https://rdf.example.org/1">
    <title>RDF item</title><link>https://rdf.example.org/1</link>
    <description>Item text</description>
    <dc:creator>Hans</dc:creator><dc:subject>Technik</dc:subject><dc:date>2024-05-19T09:00:00+02:00</dc:date>
  </item>
</rdf:RDF>`;

const RSS090 = `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://my.netscape.com/rdf/simple/0.9/">
  <channel><title>Mozilla Dot Org</title><link>http://www.mozilla.org</link><description>d</description></channel>
  <item><title>New Status Updates</title><link>http://www.mozilla.org/status/</link></item>
  <item><title>Bugzilla Reorganized</title><link>http://www.mozilla.org/bugs/</link></item>
</rdf:RDF>`;

const ATOM10 = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en-US" xml:base="https://blog.example.org/">
  <title type="text">A &amp; B blog</title>
  <subtitle type="html">&lt;i&gt;thoughts&lt;/i&gt;</subtitle>
  <link href="/" />
  <link rel="self" href="/atom.xml"/>
  <link rel="hub" href="https://pubsubhubbub.example.com/"/>
  <updated>2024-05-19T10:00:00Z</updated>
  <id>urn:uuid:feed</id>
  <logo>/logo.png</logo>
  <author><name>Feed Author</name></author>
  <entry>
    <title type="html">Hello &lt;em&gt;world&lt;/em&gt;</title>
    <link rel="alternate" type="application/pdf" href="/p.pdf"/>
    <link rel="alternate" type="text/html" href="posts/hello"/>
    <link rel="enclosure" type="image/jpeg" length="999" href="/img/hero.jpg"/>
    <id>tag:blog.example.org,2024:1</id>
    <published>2024-05-18T08:00:00+02:00</published>
    <updated>2024-05-19T08:00:00Z</updated>
    <summary>Plain &lt;summary&gt;</summary>
    <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Hi <a href="about">me</a></p></div></content>
    <category term="tech" label="Technology"/><category term="misc"/>
  </entry>
  <entry>
    <title>No link entry</title>
    <id>https://blog.example.org/posts/2</id>
    <updated>2024-05-17T08:00:00Z</updated>
    <author><name>Guest</name></author>
    <content type="html">&lt;p&gt;escaped&lt;/p&gt;</content>
  </entry>
</feed>`;

const ATOM03 = `<?xml version="1.0" encoding="utf-8"?>
<feed version="0.3" xmlns="http://purl.org/atom/ns#">
  <title mode="escaped" type="text/html">Old &amp;amp; Atom</title>
  <tagline>Tag line</tagline>
  <link rel="alternate" type="text/html" href="http://atom03.example.com/"/>
  <modified>2004-05-19T10:00:00Z</modified>
  <entry>
    <title>Entry 0.3</title>
    <link rel="alternate" type="text/html" href="http://atom03.example.com/1"/>
    <id>tag:atom03.example.com,2004:1</id>
    <issued>2004-05-19T10:00:00-05:00</issued>
    <modified>2004-05-19T16:00:00Z</modified>
    <content type="text/html" mode="base64">PHA+QmFzZSA2NCA8Yj5ib2xkPC9iPjwvcD4=</content>
    <summary type="application/xhtml+xml" mode="xml"><div xmlns="http://www.w3.org/1999/xhtml">X <b>html</b></div></summary>
  </entry>
</feed>`;

const JSONFEED = JSON.stringify({
  version: 'https://jsonfeed.org/version/1.1',
  title: 'JSON News',
  home_page_url: 'https://json.example.com/',
  feed_url: 'https://json.example.com/feed.json',
  description: 'desc',
  icon: 'https://json.example.com/icon.png',
  language: 'en',
  hubs: [{ type: 'WebSub', url: 'https://hub.example.com/' }],
  authors: [{ name: 'Feed Writer' }],
  items: [
    {
      id: '1',
      url: 'https://json.example.com/1',
      title: 'First & foremost',
      content_html: '<p>Hello <img src="/i.png"></p><script>alert(1)</script>',
      summary: 'Sum <b>not html</b>',
      date_published: '2024-05-19T10:00:00+02:00',
      date_modified: '2024-05-19T11:00:00Z',
      tags: ['a', 'b'],
      attachments: [{ url: 'https://json.example.com/a.mp3', mime_type: 'audio/mpeg', size_in_bytes: 42 }],
    },
    { id: 2, external_url: 'https://elsewhere.example.net/x', content_text: 'plain <text>', author: { name: 'Old Style' } },
  ],
});

describe('RSS 2.0', () => {
  const f = parseFeed(RSS2, { baseUrl: BASE });
  it('reads the channel', () => {
    expect(f.feed).toEqual({
      title: 'Example News',
      link: 'https://news.example.com/',
      description: 'All the news & more',
      language: 'en-GB',
      published: '2024-05-19T09:00:00.000Z',
      updated: '2024-05-19T10:00:00.000Z',
      image: 'https://news.example.com/logo.png',
    });
  });
  it('reads meta for the publisher actors', () => {
    expect(f.meta).toMatchObject({
      format: 'rss2', ttlMinutes: 15, hubs: ['https://hub.example.net/'], self: 'https://news.example.com/feeds/main.xml',
      skipHours: [1, 2], skipDays: ['Saturday', 'Sunday'],
    });
  });
  it('normalises an item', () => {
    expect(f.entries[0]).toEqual({
      title: 'Council approves budget',
      link: 'https://news.example.com/a/1',
      id: '000123',
      published: '2024-05-19T07:30:00.000Z',
      updated: null,
      summary: 'Short <b>summary</b>',
      content: '<p>Full <em>text</em></p>',
      author: 'City Desk',
      categories: ['Politics', 'Local'],
      enclosures: [{ url: 'https://cdn.example.com/a1.mp3', type: 'audio/mpeg', length: 12345 }],
      thumbnail: null,
    });
  });
  it('uses a permalink guid as the link and Dublin Core fields', () => {
    expect(f.entries[1]).toMatchObject({
      link: 'https://news.example.com/a/2', id: 'https://news.example.com/a/2', author: 'Ann Author', published: '2024-05-18T12:00:00.000Z',
    });
  });
});

describe('RSS 0.9x', () => {
  it('0.91 with HTML entities declared only by the external DTD', () => {
    const f = parseFeed(Buffer.from(RSS091, 'latin1'));
    expect(f.meta.format).toBe('rss09');
    expect(f.feed.title).toBe('Old école');
    expect(f.entries[0]).toMatchObject({ title: 'Café story', summary: 'It’s here', link: 'http://old.example.com/1' });
  });
  it('0.92 items without a title', () => {
    const f = parseFeed(RSS092);
    expect(f.meta.format).toBe('rss09');
    expect(f.entries[0]).toMatchObject({ title: null, summary: 'Only a description', link: null, id: null });
    expect(f.entries[0]!.enclosures).toEqual([{ url: 'http://e.example.com/x.mp3', type: 'audio/mpeg', length: 5 }]);
  });
  it('0.90 (RDF)', () => {
    const f = parseFeed(RSS090);
    expect(f.meta.format).toBe('rss09');
    expect(f.entries.map((e) => e.title)).toEqual(['New Status Updates', 'Bugzilla Reorganized']);
    expect(f.entries[1]!.link).toBe('http://www.mozilla.org/bugs/');
  });
});

describe('RSS 1.0 (RDF)', () => {
  const f = parseFeed(RDF10);
  it('reads channel, image and items that are siblings of the channel', () => {
    expect(f.meta.format).toBe('rss1');
    expect(f.feed).toMatchObject({ title: 'RDF Site', language: 'de', image: 'https://rdf.example.org/logo.gif', updated: '2024-05-19T08:00:00.000Z' });
    expect(f.entries).toHaveLength(1);
    expect(f.entries[0]).toMatchObject({
      title: 'RDF item', id: 'https://rdf.example.org/1', author: 'Hans', categories: ['Technik'], published: '2024-05-19T07:00:00.000Z',
    });
  });
});

describe('Atom 1.0', () => {
  const f = parseFeed(ATOM10, { baseUrl: 'https://other.example.net/feed' });
  it('reads the feed with xml:base resolution', () => {
    expect(f.meta).toMatchObject({ format: 'atom10', self: 'https://blog.example.org/atom.xml', hubs: ['https://pubsubhubbub.example.com/'] });
    expect(f.feed).toEqual({
      title: 'A & B blog', link: 'https://blog.example.org/', description: 'thoughts', language: 'en-US',
      published: null, updated: '2024-05-19T10:00:00.000Z', image: 'https://blog.example.org/logo.png',
    });
  });
  it('applies the rel=alternate rules and text construct kinds', () => {
    const e = f.entries[0]!;
    expect(e.title).toBe('Hello world');
    expect(e.link).toBe('https://blog.example.org/posts/hello');
    expect(e.summary).toBe('Plain &lt;summary&gt;');
    expect(e.content).toBe('<p>Hi <a href="https://blog.example.org/about">me</a></p>');
    expect(e.categories).toEqual(['Technology', 'misc']);
    expect(e.author).toBe('Feed Author');
    expect(e.published).toBe('2024-05-18T06:00:00.000Z');
    expect(e.enclosures).toEqual([{ url: 'https://blog.example.org/img/hero.jpg', type: 'image/jpeg', length: 999 }]);
    expect(e.thumbnail).toBe('https://blog.example.org/img/hero.jpg');
  });
  it('falls back to an http id as the link; entry author beats feed author', () => {
    expect(f.entries[1]).toMatchObject({ link: 'https://blog.example.org/posts/2', author: 'Guest', content: '<p>escaped</p>', published: null });
  });
});

describe('Atom 0.3', () => {
  const f = parseFeed(ATOM03);
  it('maps 0.3 names and modes', () => {
    expect(f.meta.format).toBe('atom03');
    expect(f.feed).toMatchObject({ title: 'Old & Atom', description: 'Tag line', link: 'http://atom03.example.com/', updated: '2004-05-19T10:00:00.000Z' });
    const e = f.entries[0]!;
    expect(e.published).toBe('2004-05-19T15:00:00.000Z');
    expect(e.updated).toBe('2004-05-19T16:00:00.000Z');
    expect(e.content).toBe('<p>Base 64 <b>bold</b></p>');
    expect(e.summary).toBe('X <b>html</b>');
  });
});

describe('JSON Feed', () => {
  const f = parseFeed(Buffer.from(JSONFEED));
  it('reads a 1.1 feed', () => {
    expect(f.meta).toMatchObject({ format: 'jsonfeed', self: 'https://json.example.com/feed.json', hubs: ['https://hub.example.com/'] });
    expect(f.feed).toMatchObject({ title: 'JSON News', link: 'https://json.example.com/', language: 'en', image: 'https://json.example.com/icon.png' });
    expect(f.entries[0]).toEqual({
      title: 'First & foremost', link: 'https://json.example.com/1', id: '1',
      published: '2024-05-19T08:00:00.000Z', updated: '2024-05-19T11:00:00.000Z',
      summary: 'Sum &lt;b&gt;not html&lt;/b&gt;', content: '<p>Hello <img src="https://json.example.com/i.png"></p>',
      author: 'Feed Writer', categories: ['a', 'b'],
      enclosures: [{ url: 'https://json.example.com/a.mp3', type: 'audio/mpeg', length: 42 }],
      thumbnail: 'https://json.example.com/i.png',
    });
  });
  it('reads 1.0 style author, numeric ids, content_text and external_url', () => {
    expect(f.entries[1]).toMatchObject({ id: '2', link: 'https://elsewhere.example.net/x', content: 'plain &lt;text&gt;', author: 'Old Style' });
  });
  it('accepts version 1 and refuses other JSON', () => {
    expect(parseFeed(JSON.stringify({ version: 'https://jsonfeed.org/version/1', title: 'x', items: [] })).meta.format).toBe('jsonfeed');
    expect(() => parseFeed('{"hello": 1}')).toThrow(expect.objectContaining({ code: 'PARSE_UNSUPPORTED' }));
    expect(() => parseFeed('{"version": ')).toThrow(expect.objectContaining({ code: 'PARSE_MALFORMED' }));
  });
});

describe('namespace prefixes are normalised by URI', () => {
  it('reads unusual prefixes for known namespaces', () => {
    const x = `<rss version="2.0" xmlns:c="http://purl.org/rss/1.0/modules/content/" xmlns:m="http://search.yahoo.com/mrss/"
      xmlns:d="http://purl.org/dc/elements/1.1/" xmlns:a="http://www.w3.org/2005/Atom"><channel>
      <a:link rel="self" href="https://x.example/feed"/>
      <item><title>t</title><c:encoded>&lt;p&gt;body&lt;/p&gt;</c:encoded><d:creator>Me</d:creator>
      <m:thumbnail url="https://x.example/t.jpg"/></item></channel></rss>`;
    const f = parseFeed(x);
    expect(f.meta.self).toBe('https://x.example/feed');
    expect(f.entries[0]).toMatchObject({ content: '<p>body</p>', author: 'Me', thumbnail: 'https://x.example/t.jpg' });
  });
  it('reads a prefixed Atom root', () => {
    const x = `<a:feed xmlns:a="http://www.w3.org/2005/Atom"><a:title>P</a:title><a:entry><a:title>E</a:title>
      <a:link href="https://p.example/1"/><a:id>i</a:id></a:entry></a:feed>`;
    const f = parseFeed(x);
    expect(f.feed.title).toBe('P');
    expect(f.entries[0]).toMatchObject({ title: 'E', link: 'https://p.example/1', id: 'i' });
  });
  it('does not let a foreign namespace impersonate a known prefix', () => {
    const x = `<rss version="2.0" xmlns:media="http://example.com/not-mrss"><channel><item><title>t</title>
      <media:thumbnail url="https://x.example/fake.jpg"/></item></channel></rss>`;
    expect(parseFeed(x).entries[0]!.thumbnail).toBeNull();
  });
});
