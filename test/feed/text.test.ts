import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/actors/feed/parse.js';

/** One RSS item with the given inner XML. */
function rssItem(inner: string, channelExtra = ''): string {
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>c</title>${channelExtra}<item>${inner}</item></channel></rss>`;
}

/** One Atom entry with the given inner XML. */
function atomEntry(inner: string, feedAttrs = ''): string {
  return `<feed xmlns="http://www.w3.org/2005/Atom"${feedAttrs}><title>f</title><entry><id>x</id>${inner}</entry></feed>`;
}

const first = (xml: string, baseUrl?: string) => parseFeed(xml, baseUrl ? { baseUrl } : {}).entries[0]!;

describe('entities and text constructs: titles become plain text', () => {
  it.each([
    ['<title>Tom &amp; Jerry</title>', 'Tom & Jerry'],
    ['<title>Tom &amp;amp; Jerry</title>', 'Tom & Jerry'], // double-escaped, as many feeds do
    // a no-break space is a character the publisher wrote, not layout: it stays
    ['<title>Caf&eacute; &ndash; &hellip; &nbsp;x</title>', 'Café – … \u00a0x'],
    ['<title>&#8220;Quoted&#8221; &#x2014; dash</title>', '“Quoted” — dash'],
    ['<title>&#150; cp1252 reference</title>', '– cp1252 reference'],
    ['<title><![CDATA[Fish & Chips <b>bold</b>]]></title>', 'Fish & Chips bold'],
    ['<title><![CDATA[AT&T]]></title>', 'AT&T'],
    ['<title>&lt;b&gt;Escaped&lt;/b&gt; markup</title>', 'Escaped markup'],
    ['<title>Stray & ampersand</title>', 'Stray & ampersand'],
    ['<title>Broken &amp entity and &copy 2024</title>', 'Broken & entity and © 2024'],
    ['<title>Unknown &bogus; entity</title>', 'Unknown &bogus; entity'],
    ['<title>  lots\n\t of   space  </title>', 'lots of space'],
    ['<title>5 &lt; 6 and 7 > 3</title>', '5 < 6 and 7 > 3'],
    ['<title>Mixed <![CDATA[cdata]]> and &amp; text</title>', 'Mixed cdata and & text'],
  ])('RSS %s', (inner, expected) => {
    expect(first(rssItem(inner)).title).toBe(expected);
  });

  it.each([
    ['<title type="text">a &lt;b&gt; tag</title>', 'a <b> tag'],
    ['<title type="html">a &lt;b&gt;bold&lt;/b&gt; &amp;amp; x</title>', 'a bold & x'],
    ['<title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">An <em>XHTML</em> &amp; title</div></title>', 'An XHTML & title'],
    ['<title type="text"><![CDATA[<not> markup]]></title>', '<not> markup'],
    ['<title>Default &amp; is text</title>', 'Default & is text'],
  ])('Atom %s', (inner, expected) => {
    expect(first(atomEntry(inner)).title).toBe(expected);
  });
});

describe('summaries and content are sanitised HTML', () => {
  it.each([
    ['<description>&lt;p&gt;Escaped &amp;amp; HTML&lt;/p&gt;</description>', '<p>Escaped &amp; HTML</p>'],
    ['<description><![CDATA[<p>CDATA &amp; HTML</p>]]></description>', '<p>CDATA &amp; HTML</p>'],
    ['<description>Plain text with &amp; and &lt;</description>', 'Plain text with &amp; and &lt;'],
    ['<description><p>Literal <b>markup</b> a broken feed forgot to escape</p></description>', '<p>Literal <b>markup</b> a broken feed forgot to escape</p>'],
    ['<description>&lt;p onclick="evil()"&gt;x&lt;script&gt;alert(1)&lt;/script&gt;&lt;/p&gt;</description>', '<p>x</p>'],
    ['<description><![CDATA[<a href="javascript:alert(1)">x</a><img src="data:image/png;base64,AAAA">]]></description>', '<a>x</a>'],
    ['<description><![CDATA[<iframe src="https://evil.example/"></iframe><style>p{}</style>ok]]></description>', 'ok'],
    ['<description><![CDATA[<div><p>unclosed <b>tags]]></description>', '<div><p>unclosed <b>tags</b></p></div>'],
    ['<description><![CDATA[<font color="red">unwrapped</font> <o:p>office</o:p>]]></description>', 'unwrapped office'],
    ['<description><![CDATA[<!-- comment -->x<![CDATA-ish]]></description>', 'x'],
    ['<description><![CDATA[a &nbsp; &hellip; &bogus; & b]]></description>', 'a \u00a0 … &amp;bogus; &amp; b'],
  ])('RSS %s', (inner, expected) => {
    expect(first(rssItem(inner)).summary).toBe(expected);
  });

  it.each([
    ['<content type="html">&lt;p&gt;one&lt;/p&gt;</content>', '<p>one</p>'],
    ['<content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>two &amp; <b>three</b></p></div></content>', '<p>two &amp; <b>three</b></p>'],
    ['<content type="xhtml"><xhtml:div xmlns:xhtml="http://www.w3.org/1999/xhtml"><xhtml:p>prefixed</xhtml:p></xhtml:div></content>', '<p>prefixed</p>'],
    ['<content type="text">5 &lt; 6</content>', '5 &lt; 6'],
    ['<content type="text/plain">plain</content>', 'plain'],
    ['<content type="image/png">iVBORw0KGgo=</content>', null],
    ['<content src="https://elsewhere.example/x"/>', null],
    ['<content type="html"><![CDATA[<p>cdata</p>]]></content>', '<p>cdata</p>'],
  ])('Atom %s', (inner, expected) => {
    expect(first(atomEntry(inner)).content).toBe(expected);
  });

  it('empty descriptions are null, not empty strings', () => {
    const e = first(rssItem('<title>t</title><description></description><content:encoded/>'));
    expect(e.summary).toBeNull();
    expect(e.content).toBeNull();
  });
});

describe('declared entities (internal DTD subset)', () => {
  it('expands internal entities, including nested ones', () => {
    const xml = `<?xml version="1.0"?><!DOCTYPE rss [
      <!ENTITY org "Example Org">
      <!ENTITY full "&org; &#169; 2024">
    ]><rss version="2.0"><channel><title>&full;</title><item><title>By &org;</title></item></channel></rss>`;
    const f = parseFeed(xml);
    expect(f.feed.title).toBe('Example Org © 2024');
    expect(f.entries[0]!.title).toBe('By Example Org');
  });
});
