import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/actors/feed/parse.js';

const DOC = 'https://site.example.com/feeds/rss.xml';

describe('RSS links', () => {
  it.each<[string, string, string | null]>([
    ['plain link', '<link>https://a.example/1</link>', 'https://a.example/1'],
    ['relative link against the document URL', '<link>/posts/1</link>', 'https://site.example.com/posts/1'],
    ['link with whitespace and line breaks', '<link>\n  https://a.example/\n  long-path </link>', 'https://a.example/long-path'],
    ['CDATA link with a raw ampersand', '<link><![CDATA[https://a.example/?a=1&b=2]]></link>', 'https://a.example/?a=1&b=2'],
    ['escaped ampersand', '<link>https://a.example/?a=1&amp;b=2</link>', 'https://a.example/?a=1&b=2'],
    ['permalink guid without link', '<guid>https://a.example/g</guid>', 'https://a.example/g'],
    ['guid with isPermaLink=false is not a link', '<guid isPermaLink="false">https://a.example/g</guid>', null],
    ['non-URL guid is not a link', '<guid>12345</guid>', null],
    ['atom:link alternate inside RSS', '<atom:link rel="alternate" href="https://a.example/alt"/>', 'https://a.example/alt'],
    ['feedburner origLink beats the tracking link', '<link>https://feeds.example/~r/x</link><feedburner:origLink>https://a.example/real</feedburner:origLink>', 'https://a.example/real'],
    ['javascript: links are dropped', '<link>javascript:alert(1)</link>', null],
  ])('%s', (_name, inner, expected) => {
    const xml = `<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0"><channel><item><title>t</title>${inner}</item></channel></rss>`;
    expect(parseFeed(xml, { baseUrl: DOC }).entries[0]!.link).toBe(expected);
  });

  it('relative links stay null without any base rather than becoming fake absolute URLs', () => {
    const xml = '<rss version="2.0"><channel><item><link>/posts/1</link></item></channel></rss>';
    expect(parseFeed(xml).entries[0]!.link).toBeNull();
  });
});

describe('Atom link rules', () => {
  it.each<[string, string, string | null]>([
    ['rel defaults to alternate', '<link href="https://a.example/1"/>', 'https://a.example/1'],
    ['HTML alternate beats other types', '<link rel="alternate" type="application/pdf" href="https://a.example/p.pdf"/><link rel="alternate" type="text/html" href="https://a.example/h"/>', 'https://a.example/h'],
    ['a non-HTML alternate is used when nothing better exists', '<link rel="alternate" type="application/pdf" href="https://a.example/p.pdf"/>', 'https://a.example/p.pdf'],
    ['self/related/replies are not the link', '<link rel="self" href="https://a.example/s"/><link rel="related" href="https://a.example/r"/><link rel="replies" href="https://a.example/c"/>', null],
    ['IANA URI form of alternate', '<link rel="http://www.iana.org/assignments/relation/alternate" href="https://a.example/i"/>', 'https://a.example/i'],
  ])('%s', (_name, inner, expected) => {
    const xml = `<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>urn:x</id>${inner}</entry></feed>`;
    expect(parseFeed(xml).entries[0]!.link).toBe(expected);
  });
});

describe('xml:base', () => {
  const xml = `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://base.example.org/blog/">
    <link href="./"/>
    <entry xml:base="2024/">
      <id>urn:1</id>
      <link href="post.html"/>
      <content type="xhtml" xml:base="/media/"><div xmlns="http://www.w3.org/1999/xhtml">
        <img src="pic.jpg"/> <a href="../about">about</a>
        <p xml:base="https://other.example.net/dir/"><a href="x">nested base</a></p>
      </div></content>
      <summary type="html">&lt;a href="rel"&gt;r&lt;/a&gt;</summary>
    </entry>
  </feed>`;
  const f = parseFeed(xml, { baseUrl: 'https://ignored-when-xml-base-is-absolute.example/' });
  const e = f.entries[0]!;

  it('resolves the feed link against the root xml:base', () => {
    expect(f.feed.link).toBe('https://base.example.org/blog/');
  });
  it('inherits and nests: feed → entry', () => {
    expect(e.link).toBe('https://base.example.org/blog/2024/post.html');
  });
  it('resolves URLs inside content against the content element base and nested bases', () => {
    expect(e.content).toContain('<img src="https://base.example.org/media/pic.jpg">');
    expect(e.content).toContain('<a href="https://base.example.org/about">about</a>');
    expect(e.content).toContain('<a href="https://other.example.net/dir/x">nested base</a>');
    expect(e.thumbnail).toBe('https://base.example.org/media/pic.jpg');
  });
  it('resolves escaped HTML content against the entry base', () => {
    expect(e.summary).toBe('<a href="https://base.example.org/blog/2024/rel">r</a>');
  });
  it('a relative root xml:base resolves against the document URL', () => {
    const x = `<rss version="2.0" xml:base="/news/"><channel><item><link>item1</link>
      <description>&lt;img src="i.png"&gt;</description></item></channel></rss>`;
    const item = parseFeed(x, { baseUrl: 'https://doc.example.com/feeds/a.xml' }).entries[0]!;
    expect(item.link).toBe('https://doc.example.com/news/item1');
    expect(item.summary).toBe('<img src="https://doc.example.com/news/i.png">');
  });
});

describe('thumbnails', () => {
  const item = (inner: string) =>
    `<rss version="2.0" xmlns:media="http://search.yahoo.com/mrss/" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
      xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><item><title>t</title>${inner}</item></channel></rss>`;
  it.each<[string, string, string | null]>([
    ['media:thumbnail', '<media:thumbnail url="https://i.example/t.jpg"/>', 'https://i.example/t.jpg'],
    ['the widest media:thumbnail', '<media:thumbnail url="https://i.example/s.jpg" width="100"/><media:thumbnail url="https://i.example/l.jpg" width="800"/>', 'https://i.example/l.jpg'],
    ['media:thumbnail inside media:group', '<media:group><media:content url="https://i.example/v.mp4" medium="video"/><media:thumbnail url="https://i.example/g.jpg"/></media:group>', 'https://i.example/g.jpg'],
    ['media:thumbnail inside media:content', '<media:content url="https://i.example/v.mp4" type="video/mp4"><media:thumbnail url="https://i.example/c.jpg"/></media:content>', 'https://i.example/c.jpg'],
    ['image media:content', '<media:content url="https://i.example/m.jpg" medium="image"/>', 'https://i.example/m.jpg'],
    ['media:content image by type', '<media:content url="https://i.example/m2" type="image/webp"/>', 'https://i.example/m2'],
    ['video media:content is not a thumbnail', '<media:content url="https://i.example/v.mp4" type="video/mp4"/>', null],
    ['image enclosure', '<enclosure url="https://i.example/e.png" type="image/png" length="1"/>', 'https://i.example/e.png'],
    ['audio enclosure is not a thumbnail', '<enclosure url="https://i.example/a.mp3" type="audio/mpeg" length="1"/>', null],
    ['itunes:image', '<itunes:image href="https://i.example/pod.jpg"/>', 'https://i.example/pod.jpg'],
    ['first <img> in content', '<content:encoded><![CDATA[<p><img src="/px.gif" width="1" height="1"><img src="/first.jpg"><img src="/second.jpg"></p>]]></content:encoded>', 'https://site.example.com/first.jpg'],
    ['first <img> in the description', '<description>&lt;img src="https://i.example/d.jpg"&gt;</description>', 'https://i.example/d.jpg'],
    ['media beats the inline image', '<media:thumbnail url="https://i.example/t.jpg"/><description>&lt;img src="https://i.example/d.jpg"&gt;</description>', 'https://i.example/t.jpg'],
    ['relative thumbnail URL', '<media:thumbnail url="/rel.jpg"/>', 'https://site.example.com/rel.jpg'],
  ])('%s', (_name, inner, expected) => {
    expect(parseFeed(item(inner), { baseUrl: DOC }).entries[0]!.thumbnail).toBe(expected);
  });
});
