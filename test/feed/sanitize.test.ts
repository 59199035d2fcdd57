import { describe, expect, it } from 'vitest';
import { htmlToText } from '../../src/actors/feed/plain-text.js';
import { sanitizeHtml } from '../../src/actors/feed/sanitize.js';

const BASE = 'https://pub.example.com/news/story.html';
const clean = (html: string) => sanitizeHtml(html, BASE).html;

describe('sanitizeHtml: hostile markup', () => {
  it.each([
    ['script element', '<p>a<script>alert(1)</script>b</p>', '<p>ab</p>'],
    ['upper-case script', '<SCRIPT SRC="https://evil.example/x.js"></SCRIPT>ok', 'ok'],
    ['script with a slash in the name position', '<script/xss src="x"></script>ok', 'ok'],
    ['nested angle brackets', '<<script>script>alert(1)<</script>/script>', '&lt;/script&gt;'],
    ['event handler attributes', '<img src="a.png" onerror="alert(1)" onload=alert(2)>', '<img src="https://pub.example.com/news/a.png">'],
    ['javascript: link', '<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['mixed-case javascript: link', '<a href="JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['entity-encoded javascript: link', '<a href="&#106;avascript:alert(1)">x</a>', '<a>x</a>'],
    ['tab inside the scheme', '<a href="java\tscript:alert(1)">x</a>', '<a>x</a>'],
    ['leading spaces before the scheme', '<a href="   javascript:alert(1)">x</a>', '<a>x</a>'],
    ['vbscript: link', '<a href="vbscript:msgbox(1)">x</a>', '<a>x</a>'],
    ['data: image', '<img src="data:image/svg+xml;base64,PHN2Zz4=">', ''],
    ['style element and attribute', '<style>body{display:none}</style><p style="color:red">x</p>', '<p>x</p>'],
    ['iframe with content', '<iframe src="https://evil.example/"><p>fallback</p></iframe>after', 'after'],
    ['object and embed', '<object data="x.swf"><embed src="x.swf"></object>ok', 'ok'],
    ['svg with script', '<svg><script>alert(1)</script><circle/></svg>ok', 'ok'],
    ['form controls', '<form action="https://evil.example/"><input name="q"><button>go</button></form>text', 'text'],
    ['base and meta', '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=x">ok', 'ok'],
    ['attribute value hiding a tag end', '<a title="a>b" href="/x">y</a>', '<a href="https://pub.example.com/x" title="a&gt;b">y</a>'],
    ['unterminated comment swallows the rest', 'a<!-- <script>alert(1)</script>', 'a'],
    ['srcset is dropped', '<img src="/a.jpg" srcset="https://evil.example/a.jpg 2x">', '<img src="https://pub.example.com/a.jpg">'],
    ['quotes in text are harmless', '5 > 3 & "q"', '5 &gt; 3 &amp; "q"'],
  ])('%s', (_name, input, expected) => {
    expect(clean(input)).toBe(expected);
  });
});

describe('sanitizeHtml: what survives', () => {
  it.each([
    ['formatting', '<p><b>b</b> <i>i</i> <em>e</em> <strong>s</strong> <code>c</code></p>', '<p><b>b</b> <i>i</i> <em>e</em> <strong>s</strong> <code>c</code></p>'],
    ['lists and tables', '<ul><li>a</li></ul><table><tr><td colspan="2">x</td></tr></table>', '<ul><li>a</li></ul><table><tr><td colspan="2">x</td></tr></table>'],
    ['relative URLs become absolute', '<a href="../other">o</a><img src="img/p.jpg" alt="P" width="300">', '<a href="https://pub.example.com/other">o</a><img src="https://pub.example.com/news/img/p.jpg" alt="P" width="300">'],
    ['protocol-relative URL', '<img src="//cdn.example.net/p.jpg">', '<img src="https://cdn.example.net/p.jpg">'],
    ['mailto links', '<a href="mailto:desk@example.com">mail</a>', '<a href="mailto:desk@example.com">mail</a>'],
    ['non-numeric sizes are dropped', '<img src="/p.jpg" width="100%" height="50">', '<img src="https://pub.example.com/p.jpg" height="50">'],
    ['entities are normalised', '<p>caf&eacute; &amp; bar &#x2014; &copy</p>', '<p>café &amp; bar — ©</p>'],
    ['unknown elements are unwrapped', '<custom-el><font face="x">kept</font></custom-el>', 'kept'],
    ['stray end tags are ignored, open ones are closed', '</div><p>a<b>b</p>c', '<p>a<b>b</b></p>c'],
    ['lang and dir survive, other attributes do not', '<p lang="de" dir="ltr" class="x" id="y">t</p>', '<p lang="de" dir="ltr">t</p>'],
  ])('%s', (_name, input, expected) => {
    expect(clean(input)).toBe(expected);
  });

  it('reports the first real image (tracking pixels skipped)', () => {
    const r = sanitizeHtml('<img src="https://feeds.feedburner.com/~r/x/~4/abc" width="1" height="1"><p><img src="/hero.jpg"></p>', BASE);
    expect(r.firstImage).toBe('https://pub.example.com/hero.jpg');
  });

  it('without a base, relative URLs are dropped rather than left relative', () => {
    expect(sanitizeHtml('<a href="/x">x</a><img src="y.png">', null).html).toBe('<a>x</a>');
  });
});

describe('htmlToText', () => {
  it.each([
    ['<p>Hello <b>world</b></p><p>again</p>', 'Hello world again'],
    ['a<br>b', 'a b'],
    ['<script>x()</script>visible', 'visible'],
    ['Tom &amp; Jerry &hellip;', 'Tom & Jerry …'],
    ['  spaced\n\tout  ', 'spaced out'],
    ['<![CDATA[<b>raw</b>]]>', '<b>raw</b>'],
    ['1 < 2', '1 < 2'],
  ])('%s', (input, expected) => {
    expect(htmlToText(input)).toBe(expected);
  });
});

describe('sanitizeHtml: tags named like Object.prototype members', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])('drops <%s> as an unknown tag, attributes and all, without crashing', (name) => {
    const out = sanitizeHtml(`<p>before <${name} class="a" onclick="x()">inside</${name}> after</p>`, 'https://example.com/').html;
    expect(out).not.toContain(`<${name}`);
    expect(out).toContain('inside');
    expect(out).toContain('before');
  });
});
