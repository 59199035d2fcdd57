import { describe, expect, it } from 'vitest';
import { canonicalUrl, InvalidUrlError, urlHash } from '../../src/actors/dedup/canonical-url.js';
import { isTrackingParam } from '../../src/actors/dedup/tracking-params.js';

describe('canonicalUrl', () => {
  it.each([
    ['HTTPS://News.Example.COM/World/Story', 'https://news.example.com/World/Story'],
    ['http://example.com/a', 'https://example.com/a'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['http://example.com:80/a', 'https://example.com/a'],
    ['https://example.com:8443/a', 'https://example.com:8443/a'],
    ['https://www.example.com/a', 'https://example.com/a'],
    ['https://m.example.com/a', 'https://example.com/a'],
    ['https://mobile.example.com/a', 'https://example.com/a'],
    ['https://amp.example.com/a', 'https://example.com/a'],
    ['https://www.m.example.com/a', 'https://example.com/a'],
    ['https://m.co/a', 'https://m.co/a'],
    ['https://example.com/amp/world/story', 'https://example.com/world/story'],
    ['https://example.com/world/story/amp', 'https://example.com/world/story'],
    ['https://example.com/world/story.amp.html', 'https://example.com/world/story.html'],
    ['https://example.com/a/?utm_source=tw&utm_medium=social&id=7', 'https://example.com/a?id=7'],
    ['https://example.com/a?fbclid=abc&gclid=def&mc_cid=1&mc_eid=2', 'https://example.com/a'],
    ['https://example.com/a?UTM_Campaign=x&b=2&a=1', 'https://example.com/a?a=1&b=2'],
    ['https://example.com/a?outputType=amp&amp=1', 'https://example.com/a'],
    ['https://example.com/a#comments', 'https://example.com/a'],
    ['https://example.com/a/', 'https://example.com/a'],
    ['https://example.com/a/index.html', 'https://example.com/a'],
    ['https://example.com/', 'https://example.com/'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com//a//b', 'https://example.com/a/b'],
    ['https://user:pw@example.com/a', 'https://example.com/a'],
    ['  https://example.com/a  ', 'https://example.com/a'],
    ['https://example.com/a?q=caf%C3%A9&x=a+b', 'https://example.com/a?q=caf%C3%A9&x=a+b'],
  ])('%s -> %s', (input, want) => {
    expect(canonicalUrl(input)).toBe(want);
  });

  it('prefers a known rel=canonical, canonicalised and resolved against the page', () => {
    expect(canonicalUrl('https://m.example.com/a?utm_source=x', '/news/a-story/')).toBe('https://example.com/news/a-story');
    expect(canonicalUrl('https://example.com/a', 'https://WWW.Example.com/b?fbclid=1')).toBe('https://example.com/b');
    expect(canonicalUrl('https://example.com/a', 'http://[broken')).toBe('https://example.com/a');
  });

  it.each(['not a url', 'ftp://example.com/a', 'javascript:alert(1)', ''])('refuses %j with a coded error', (bad) => {
    expect(() => canonicalUrl(bad)).toThrow(InvalidUrlError);
    try {
      canonicalUrl(bad);
    } catch (err) {
      expect((err as InvalidUrlError).code).toBe('INVALID_URL');
    }
  });

  it('hashes variants of one article to one url_hash and others apart', () => {
    const a = urlHash(canonicalUrl('https://www.example.com/a?utm_source=x#top'));
    const b = urlHash(canonicalUrl('http://m.example.com/amp/a/'));
    const c = urlHash(canonicalUrl('https://example.com/b'));
    expect(a).toMatch(/^[0-9a-f]{16}$/);
    expect(a).toBe(b);
    expect(a).not.toBe(c);
  });
});

describe('tracking parameter table', () => {
  it.each([
    ['utm_source', true], ['UTM_MEDIUM', true], ['fbclid', true], ['gclid', true], ['mc_cid', true], ['_hsenc', true],
    ['id', false], ['page', false], ['q', false], ['article', false], ['p', false],
  ])('%s tracking=%s', (name, want) => {
    expect(isTrackingParam(name)).toBe(want);
  });
});
