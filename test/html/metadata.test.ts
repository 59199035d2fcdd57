import { describe, expect, it } from 'vitest';
import { extractPageMetadata } from '../../src/actors/html/metadata.js';
import { articlePage } from './fixtures.js';

const PAGE = 'https://news.example.org/world/2024/05/harbour-reopens?utm=x';

describe('extractPageMetadata', () => {
  it('reads Open Graph, canonical, html lang and strips the site suffix from <title>', () => {
    const m = extractPageMetadata(articlePage({
      title: 'Harbour reopens after storm', description: 'Ships return &amp; crews celebrate.', published: '2024-05-02T08:30:00+02:00',
      image: '/img/harbour.jpg', canonical: '/world/2024/05/harbour-reopens', siteName: 'Example News', lang: 'en-GB',
    }), PAGE);
    expect(m).toMatchObject({
      title: 'Harbour reopens after storm',
      description: 'Ships return & crews celebrate.',
      canonical: 'https://news.example.org/world/2024/05/harbour-reopens',
      image: 'https://news.example.org/img/harbour.jpg',
      publishedAt: '2024-05-02T06:30:00.000Z',
      siteName: 'Example News',
      language: 'en',
    });
  });

  it('reads JSON-LD NewsArticle nested in @graph', () => {
    const m = extractPageMetadata(articlePage({
      title: 'Council votes on budget', description: 'A close vote.', published: '2024-05-03T10:00:00Z',
      image: 'https://cdn.example.org/b.png', siteName: 'Town Paper', lang: 'de', jsonLd: true,
    }), PAGE);
    expect(m).toMatchObject({
      title: 'Council votes on budget', description: 'A close vote.', publishedAt: '2024-05-03T10:00:00.000Z',
      image: 'https://cdn.example.org/b.png', author: 'Ada Reporter, Bo Editor', type: 'newsarticle', language: 'de',
    });
    expect(m.keywords).toEqual(['alpha', 'beta']);
  });

  it.each([
    ['og:title beats <title>', '<title>T1</title><meta property="og:title" content="T2">', 'title', 'T2'],
    ['twitter:title when no og', '<title>T1</title><meta name="twitter:title" content="T3">', 'title', 'T3'],
    ['svg <title> is not the page title', '<svg><title>icon</title></svg><title>Real</title>', 'title', 'Real'],
    ['<base href> resolves relative images', '<base href="https://cdn.example.net/a/"><meta property="og:image" content="p.jpg">', 'image', 'https://cdn.example.net/a/p.jpg'],
    ['javascript: URLs are dropped', '<meta property="og:image" content="javascript:alert(1)">', 'image', null],
    ['og:url when no canonical link', '<meta property="og:url" content="https://news.example.org/c">', 'canonical', 'https://news.example.org/c'],
    ['microdata <time pubdate>', '<time pubdate datetime="2024-01-02T03:04:05Z">Jan 2</time>', 'publishedAt', '2024-01-02T03:04:05.000Z'],
    ['itemprop meta date', '<meta itemprop="datePublished" content="2024-01-02">', 'publishedAt', '2024-01-02T00:00:00.000Z'],
    ['a plain <time> is not a publication date', '<time datetime="2024-01-02T03:04:05Z">sidebar</time>', 'publishedAt', null],
    ['garbage date gives null, never a guess', '<meta property="article:published_time" content="soon">', 'publishedAt', null],
    ['og:locale as language', '<meta property="og:locale" content="pt_BR">', 'language', 'pt'],
    ['modified time', '<meta property="article:modified_time" content="2024-02-01T00:00:00Z">', 'modifiedAt', '2024-02-01T00:00:00.000Z'],
    ['author URL is not a name', '<meta property="article:author" content="https://facebook.com/x">', 'author', null],
    ['broken JSON-LD with trailing comma still read', '<script type="application/ld+json">{"@type":"NewsArticle","headline":"H","datePublished":"2024-03-04T00:00:00Z",}</script>', 'publishedAt', '2024-03-04T00:00:00.000Z'],
    ['keywords merged and de-duplicated', '<meta name="keywords" content="a, b"><meta name="news_keywords" content="b,c">', 'keywords', ['b', 'c', 'a']],
  ])('%s', (_label, head, field, expected) => {
    const m = extractPageMetadata(`<html><head>${head}</head><body></body></html>`, PAGE) as unknown as Record<string, unknown>;
    expect(m[field]).toEqual(expected);
  });

  it('returns an empty record, without throwing, for hostile or non-HTML input', () => {
    const inputs = ['', '<<<<>>>>', '<meta content="x', '\u0000\u0001binary\uFFFD', '<script type="application/ld+json">{{{{</script>',
      `<script type="application/ld+json">${'['.repeat(5000)}</script>`, '<title>' + 'x'.repeat(100_000), null as unknown as string];
    for (const html of inputs) {
      const m = extractPageMetadata(html, PAGE);
      expect(m.publishedAt).toBeNull();
      expect(m.image).toBeNull();
    }
  });
});
