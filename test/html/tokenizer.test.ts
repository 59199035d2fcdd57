import { describe, expect, it } from 'vitest';
import { parseMetaDate } from '../../src/actors/html/dates.js';
import { pageText, scanTags, type StartTag } from '../../src/actors/html/tokenizer.js';

function starts(html: string): StartTag[] {
  const out: StartTag[] = [];
  scanTags(html, (t) => { if (t.kind === 'start') out.push(t); });
  return out;
}

describe('scanTags', () => {
  it.each([
    ['double, single and unquoted values', '<meta name="a" content=\'b c\' data-x=y>', 'meta', { name: 'a', content: 'b c', 'data-x': 'y' }],
    ['upper-case names are lowered', '<META NAME="Description" CONTENT="X">', 'meta', { name: 'Description', content: 'X' }],
    ['entities decoded in values', '<meta content="Tom &amp; Jerry &quot;hi&quot;">', 'meta', { content: 'Tom & Jerry "hi"' }],
    ['first duplicate attribute wins', '<link rel="canonical" rel="x" href="/a">', 'link', { rel: 'canonical', href: '/a' }],
    ['boolean attributes and self-closing slash', '<time pubdate datetime="2020-01-01"/>', 'time', { pubdate: '', datetime: '2020-01-01' }],
    ['spaces around =', '<a href = "/x" >', 'a', { href: '/x' }],
    ['> inside a quoted value', '<meta content="a > b" name=n>', 'meta', { content: 'a > b', name: 'n' }],
  ])('%s', (_label, html, name, attrs) => {
    const tags = starts(html);
    expect(tags[0]?.name).toBe(name);
    expect({ ...tags[0]?.attrs }).toEqual(attrs);
  });

  it('skips comments, doctype and processing instructions', () => {
    const tags = starts('<!DOCTYPE html><?xml x?><!-- <meta name="hidden"> --><meta name="shown">');
    expect(tags.map((t) => t.attrs['name'])).toEqual(['shown']);
  });

  it('keeps raw text of title and script, and does not see tags inside them', () => {
    const tags = starts('<title>A <b>bold</b> &amp; title</title><script>var s = "<meta name=fake>";</SCRIPT ><meta name=real>');
    expect(tags.map((t) => t.name)).toEqual(['title', 'script', 'meta']);
    expect(tags[0]!.text).toBe('A <b>bold</b> &amp; title');
    expect(tags[1]!.text).toContain('<meta name=fake>');
    expect(tags[2]!.attrs['name']).toBe('real');
  });

  it('stops quietly at unterminated constructs', () => {
    expect(starts('<meta name=a><!-- never closed <meta name=b>').map((t) => t.attrs['name'])).toEqual(['a']);
    expect(starts('<meta name=a><meta content="never closed>').map((t) => t.attrs['name'])).toEqual(['a']);
    expect(starts('<title>no end').map((t) => t.text)).toEqual(['no end']);
  });

  it('survives hostile input without throwing', () => {
    const hostile = ['<'.repeat(200_000), '<a '.repeat(50_000), '<!--'.repeat(10_000), '<script>'.repeat(10_000), '\u0000<meta\u0000 a=\u0000>', '</>'.repeat(1000)];
    for (const h of hostile) expect(() => starts(h)).not.toThrow();
  });

  it('can stop early', () => {
    let seen = 0;
    scanTags('<a><b><c>', () => { seen++; return seen < 2; });
    expect(seen).toBe(2);
  });
});

describe('pageText', () => {
  it.each([
    ['  a \n\t b ', 'a b'],
    ['Tom &amp;amp; Jerry', 'Tom & Jerry'],
    ['<b>Bold</b> news', 'Bold news'],
    ['caf&eacute; &#8220;q&#8221;', 'café “q”'],
    [null, ''],
  ])('%j -> %j', (input, out) => expect(pageText(input)).toBe(out));
});

describe('parseMetaDate', () => {
  it.each([
    ['2019-11-19T07:03:25+00:00', '2019-11-19T07:03:25.000Z'],
    ['2019-11-19T07:03:25-05:00', '2019-11-19T12:03:25.000Z'],
    ['2019-11-19T07:03:25.123456Z', '2019-11-19T07:03:25.123Z'],
    ['2019-11-19 07:03:25', '2019-11-19T07:03:25.000Z'],
    ['2019-11-19', '2019-11-19T00:00:00.000Z'],
    ['20191119T0703+0100', '2019-11-19T06:03:00.000Z'],
    ['Tue, 19 Nov 2019 07:03:25 GMT', '2019-11-19T07:03:25.000Z'],
    ['Tue, 19 Nov 2019 07:03:25 +0200', '2019-11-19T05:03:25.000Z'],
    ['November 19, 2019', '2019-11-19T00:00:00.000Z'],
    ['1574147005', '2019-11-19T07:03:25.000Z'],
    ['19.11.2019 14:00', '2019-11-19T14:00:00.000Z'],
    [1574147005123, '2019-11-19T07:03:25.123Z'],
    ['0001-01-01T00:00:00Z', null],
    ['2019', null],
    ['2019-11', null],
    ['2019-02-30', null],
    ['2019-13-01T00:00:00Z', null],
    ['yesterday', null],
    ['foo 12', null],
    ['', null],
    [undefined, null],
  ])('%j -> %j', (input, out) => expect(parseMetaDate(input)).toBe(out));
});

describe('scanTags with a tag filter', () => {
  it('skips unwanted tags (quoted ">" included) yet still sees wanted ones and raw text', () => {
    const names: string[] = [];
    scanTags('<div data-x="a > b" class=y><meta name=m><p title=\'>\'>x</p><title>T</title><span>', (t) => {
      if (t.kind === 'start') names.push(`${t.name}:${t.attrs['name'] ?? t.text ?? ''}`);
    }, undefined, (n) => n === 'meta');
    expect(names).toEqual(['meta:m', 'title:T']);
  });
});
