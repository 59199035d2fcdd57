import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { decodeBody, decodeUtf8 } from '../../src/actors/feed/encoding.js';
import { parseFeed } from '../../src/actors/feed/parse.js';

const TITLE = 'Crème brûlée – “quoted” €5';

function rss(decl: string | null, title = TITLE): string {
  return `${decl === null ? '' : `<?xml version="1.0"${decl ? ` encoding="${decl}"` : ''}?>`}
<rss version="2.0"><channel><title>Feed</title><link>https://example.org/</link>
<item><title>${title}</title><link>https://example.org/a</link></item></channel></rss>`;
}

const bom = (b: number[], body: Buffer) => Buffer.concat([Buffer.from(b), body]);

describe('encoding detection', () => {
  it.each<[string, () => Buffer, string | undefined]>([
    ['UTF-8 without declaration', () => Buffer.from(rss(null), 'utf8'), undefined],
    ['UTF-8 with BOM', () => bom([0xef, 0xbb, 0xbf], Buffer.from(rss('utf-8'), 'utf8')), undefined],
    ['UTF-16LE with BOM', () => bom([0xff, 0xfe], iconv.encode(rss('utf-16'), 'utf16le')), undefined],
    ['UTF-16BE with BOM', () => bom([0xfe, 0xff], iconv.encode(rss('utf-16'), 'utf16be')), undefined],
    ['UTF-16LE without BOM', () => iconv.encode(rss('utf-16'), 'utf16le'), undefined],
    ['UTF-16BE without BOM', () => iconv.encode(rss('utf-16'), 'utf16be'), undefined],
    ['UTF-32LE with BOM', () => bom([0xff, 0xfe, 0, 0], iconv.encode(rss('utf-32'), 'utf32le')), undefined],
    ['UTF-32BE without BOM', () => iconv.encode(rss('utf-32'), 'utf32be'), undefined],
    ['declared windows-1252', () => iconv.encode(rss('windows-1252'), 'win1252'), undefined],
    ['declared ISO-8859-1 but using cp1252 quotes (read as windows-1252)', () => iconv.encode(rss('ISO-8859-1'), 'win1252'), undefined],
    ['HTTP charset beats a missing declaration', () => iconv.encode(rss(null), 'win1252'), 'text/xml; charset=windows-1252'],
    ['HTTP charset beats a wrong declaration', () => iconv.encode(rss('utf-8'), 'win1252'), 'application/rss+xml; charset="Windows-1252"'],
    ['UTF-8 document behind a Latin-1 server default', () => Buffer.from(rss('utf-8'), 'utf8'), 'text/xml; charset=ISO-8859-1'],
    ['UTF-16 label on an 8-bit body is ignored', () => Buffer.from(rss('utf-8'), 'utf8'), 'text/xml; charset=utf-16'],
  ])('%s', (_name, body, contentType) => {
    const feed = parseFeed(body(), contentType ? { contentType } : {});
    expect(feed.entries[0]!.title).toBe(TITLE);
  });

  it.each([
    ['ISO-8859-2', 'Zażółć gęślą jaźń'.replace(/[ćźń]/g, 'z'), 'iso-8859-2'],
    ['windows-1251', 'Новый цитатник', 'win1251'],
    ['ISO-8859-15', 'Prix: 5 € œuvre', 'iso-8859-15'],
    ['KOI8-R', 'Привет мир', 'koi8-r'],
    ['Shift_JIS', '日本語のタイトル', 'shift_jis'],
  ])('declared %s', (label, title, codec) => {
    const body = iconv.encode(rss(label, title), codec);
    expect(parseFeed(body).entries[0]!.title).toBe(title);
  });

  // invalid sequences in a UTF-8 document become U+FFFD; the document is never re-read as Latin-1
  const head = '<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><item><title>';
  const tail = '</title><link>https://example.org/a</link></item></channel></rss>';
  const doc = (decl: string, ...parts: (string | number[])[]) =>
    Buffer.concat([Buffer.from(head.replace('utf-8', decl), 'utf8'), ...parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))), Buffer.from(tail, 'utf8')]);
  it.each<[string, Buffer, string | undefined, string]>([
    ['a stray byte in UTF-8', doc('utf-8', 'Café ', [0xff], ' Zürich'), undefined, 'Café \ufffd Zürich'],
    ['a truncated sequence before ASCII', doc('utf-8', 'Zürich Z', [0xc3], '(rich)'), undefined, 'Zürich Z\ufffd(rich)'],
    ['Windows-1252 bytes pasted into UTF-8', doc('utf-8', 'Café ', [0x93, 0x71, 0x94]), undefined, 'Café \ufffdq\ufffd'],
    ['UTF-8 with bad bytes behind a Latin-1 HTTP default', doc('utf-8', 'Crème brûlée ', [0xe2, 0x82]), 'text/xml; charset=ISO-8859-1', 'Crème brûlée \ufffd'],
    ['UTF-8 with a bad byte under a stale Latin-1 declaration', doc('iso-8859-1', 'Crème brûlée ', [0xff]), undefined, 'Crème brûlée \ufffd'],
    ['classic broken sequences and nothing else', doc('utf-8', 'a ', [0xc3, 0x28], ' b ', [0xe2, 0x82, 0x28], ' c ', [0xf0, 0x28, 0x8c, 0xbc]), undefined, 'a \ufffd( b \ufffd( c \ufffd(\ufffd\ufffd'],
    ['a lone stray byte and nothing else', doc('utf-8', 'Bad ', [0xff], ' byte'), 'application/rss+xml; charset=utf-8', 'Bad \ufffd byte'],
    ['UTF-8 with bad bytes and no declaration', Buffer.concat([Buffer.from('<rss version="2.0"><channel><item><title>naïve ', 'utf8'), Buffer.from([0xc0, 0xaf]), Buffer.from(tail, 'utf8')]), undefined, 'naïve \ufffd\ufffd'],
  ])('%s: the valid text kept, U+FFFD for the invalid bytes', (_name, body, contentType, title) => {
    const parsed = parseFeed(body, contentType ? { contentType } : {});
    expect(parsed.entries[0]!.title).toBe(title);
    expect(parsed.entries[0]!.title).not.toMatch(/Ã|â€/);
    expect(parsed.meta.encoding).toBe('utf-8');
  });

  it('bytes without one valid multi-byte sequence are a single-byte code page, whatever the label', () => {
    const latin = iconv.encode(rss('utf-8'), 'win1252');
    const parsed = parseFeed(latin);
    expect(parsed.entries[0]!.title).toBe(TITLE);
    expect(parsed.meta.encoding).toBe('windows-1252');
  });

  it('decodeUtf8 keeps valid multi-byte UTF-8 next to an invalid byte', () => {
    const b = Buffer.concat([Buffer.from('ä€😀', 'utf8'), Buffer.from([0xe9]), Buffer.from('x', 'utf8')]);
    expect(decodeUtf8(b)).toBe('ä€😀\ufffdx');
  });

  it('reports which encoding it used', () => {
    expect(decodeBody(iconv.encode(rss('windows-1252'), 'win1252')).encoding).toBe('windows-1252');
    expect(decodeBody(iconv.encode(rss('utf-16'), 'utf16le')).encoding).toBe('utf-16le');
    expect(parseFeed(Buffer.from(rss(null))).meta.encoding).toBe('utf-8');
  });

  it('an unknown declared charset falls back to UTF-8', () => {
    expect(parseFeed(Buffer.from(rss('x-no-such-charset'), 'utf8')).entries[0]!.title).toBe(TITLE);
  });

  it('accepts a string body as already decoded', () => {
    expect(parseFeed(rss('windows-1252')).entries[0]!.title).toBe(TITLE);
  });

  it('inflates a gzip body', async () => {
    const { gzipSync } = await import('node:zlib');
    expect(parseFeed(gzipSync(Buffer.from(rss(null)))).entries[0]!.title).toBe(TITLE);
  });
});
