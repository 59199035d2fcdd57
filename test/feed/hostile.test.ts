import { describe, expect, it } from 'vitest';
import { FeedParseError } from '../../src/actors/feed/errors.js';
import { parseFeed } from '../../src/actors/feed/parse.js';

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(FeedParseError);
    return (err as FeedParseError).code;
  }
  return 'NO_ERROR';
}

const billionLaughs = `<?xml version="1.0"?>
<!DOCTYPE rss [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
  <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
  <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
  <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
  <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
  <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<rss version="2.0"><channel><title>&lol9;</title></channel></rss>`;

/** Few declarations, each small, but referenced many times: quadratic blowup. */
const quadratic = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "${'x'.repeat(50_000)}">]>
<rss version="2.0"><channel><title>${'&a;'.repeat(200)}</title></channel></rss>`;

describe('hostile XML', () => {
  it('billion laughs is refused with PARSE_ENTITY_LIMIT', () => {
    expect(codeOf(() => parseFeed(billionLaughs))).toBe('PARSE_ENTITY_LIMIT');
  });

  it('quadratic entity blowup is refused with PARSE_ENTITY_LIMIT', () => {
    expect(codeOf(() => parseFeed(quadratic))).toBe('PARSE_ENTITY_LIMIT');
  });

  it('recursive entities are refused', () => {
    const x = '<!DOCTYPE rss [<!ENTITY a "&b;"><!ENTITY b "&a;">]><rss><channel><title>&a;</title></channel></rss>';
    expect(codeOf(() => parseFeed(x))).toBe('PARSE_ENTITY_LIMIT');
  });

  it('external entities are never fetched or expanded (XXE)', () => {
    const x = `<?xml version="1.0"?><!DOCTYPE rss [
      <!ENTITY xxe SYSTEM "file:///etc/passwd">
      <!ENTITY remote PUBLIC "-//X//Y" "http://127.0.0.1:1/evil.dtd">
      <!ENTITY % param SYSTEM "http://127.0.0.1:1/p.dtd"> %param;
    ]><rss version="2.0"><channel><title>a&xxe;b</title><item><title>&remote;</title></item></channel></rss>`;
    const f = parseFeed(x);
    expect(f.feed.title).toBe('a&xxe;b');
    expect(f.feed.title).not.toContain('root:');
    expect(f.entries[0]!.title).toBe('&remote;');
  });

  it('deep nesting is refused with PARSE_TOO_DEEP', () => {
    const deep = `<rss version="2.0"><channel><item>${'<x>'.repeat(5000)}${'</x>'.repeat(5000)}</item></channel></rss>`;
    expect(codeOf(() => parseFeed(deep))).toBe('PARSE_TOO_DEEP');
  });

  it('deep nesting inside HTML content is flattened, not a crash', () => {
    const html = `${'<div>'.repeat(20_000)}deep${'</div>'.repeat(20_000)}`;
    const x = `<rss version="2.0"><channel><item><description><![CDATA[${html}]]></description></item></channel></rss>`;
    const s = parseFeed(x).entries[0]!.summary!;
    expect(s).toContain('deep');
    expect(s.split('<div>').length - 1).toBe(64);
  });

  it('bodies over maxBytes are refused with PARSE_TOO_LARGE before parsing', () => {
    const x = `<rss version="2.0"><channel>${'<item><title>x</title></item>'.repeat(1000)}</channel></rss>`;
    expect(codeOf(() => parseFeed(Buffer.from(x), { maxBytes: 1000 }))).toBe('PARSE_TOO_LARGE');
    expect(parseFeed(Buffer.from(x), { maxBytes: 1_000_000 }).entries).toHaveLength(1000);
  });

  it('a gzip bomb is refused with PARSE_TOO_LARGE', async () => {
    const { gzipSync } = await import('node:zlib');
    const bomb = gzipSync(Buffer.alloc(5_000_000, 0x20));
    expect(codeOf(() => parseFeed(bomb, { maxBytes: 1_000_000 }))).toBe('PARSE_TOO_LARGE');
  });

  it.each([
    ['empty body', ''],
    ['whitespace only', '   \n  '],
    ['unterminated title', '<rss version="2.0"><channel><title>never closed</channel></rss>'],
    ['unterminated DOCTYPE', '<!DOCTYPE rss [ <!ENTITY a "b"> '],
    ['unterminated CDATA', '<rss><channel><item><guid><![CDATA[abc</guid></item></channel></rss>'],
    ['truncated start tag', '<rss version="2.0"><channel><item'],
  ])('malformed input → PARSE_MALFORMED (%s)', (_name, x) => {
    expect(codeOf(() => parseFeed(x))).toBe('PARSE_MALFORMED');
  });

  it.each([
    ['an HTML page', '<!DOCTYPE html><html><head><title>Hi</title></head><body>x</body></html>'],
    ['an HTML page without doctype', '<html><body><p>x</p></body></html>'],
    ['an OPML file', '<?xml version="1.0"?><opml version="2.0"><body/></opml>'],
    ['plain text', 'Hello, this is not a feed'],
    ['JSON that is not a JSON Feed', '{"items": []}'],
    ['binary noise', '\u0001\u0002\u0003'],
  ])('not a feed → PARSE_UNSUPPORTED (%s)', (_name, x) => {
    expect(codeOf(() => parseFeed(x))).toBe('PARSE_UNSUPPORTED');
  });

  it('errors carry a stable code and a readable message', () => {
    try {
      parseFeed('<html><body/></html>');
      expect.unreachable();
    } catch (err) {
      expect(err).toMatchObject({ name: 'FeedParseError', code: 'PARSE_UNSUPPORTED' });
      expect((err as Error).message).toMatch(/HTML/);
    }
  });

  it('lenient on recoverable damage: mismatched end tags and stray ampersands still parse', () => {
    const x = `<rss version="2.0"><channel><title>Q&A & more</title><item><title>One</title><link>https://a.example/?x=1&y=2</link></item>
      <item><title>Two</titel></title></item></channel></rss>`;
    const f = parseFeed(x);
    expect(f.feed.title).toBe('Q&A & more');
    expect(f.entries[0]!.link).toBe('https://a.example/?x=1&y=2');
  });

  it('lenient on an unquoted root attribute and a DOCTYPE after a long prolog comment', () => {
    expect(parseFeed('<rss version=2.0><channel><item><title>x</title></item></channel></rss>').entries[0]!.title).toBe('x');
    const late = `<!--${'c'.repeat(5000)}--><!DOCTYPE rss [<!ENTITY a "AAA">]><rss version="2.0"><channel><item><title>&a;</title></item></channel></rss>`;
    expect(parseFeed(late).entries[0]!.title).toBe('AAA');
  });

  it('prototype-polluting element names do not pollute', () => {
    const x = '<rss version="2.0"><channel><item><title>t</title><constructor>x</constructor><__proto__><polluted>1</polluted></__proto__></item></channel></rss>';
    try {
      parseFeed(x);
    } catch (err) {
      expect(err).toBeInstanceOf(FeedParseError);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
