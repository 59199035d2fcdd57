import { describe, expect, it } from 'vitest';
import { parseFeed } from '../../src/actors/feed/parse.js';
import { prepareBatch } from '../../src/actors/ingest/prepare.js';
import { freshEntries, type PublisherIdentity } from '../../src/actors/publisher/entries.js';
import { createSeen } from '../../src/actors/publisher/seen.js';

/**
 * What a feed says about its items' topics and language travels with each raw article: the
 * entry's own categories (RSS `<category>`, Atom `category`, JSON Feed `tags`), the feed's declared
 * language (`<language>`, `xml:lang`, JSON Feed `language`) and the publisher's language, kept apart
 * (the feed's first). The real parser, entries and CPU stage; the texts are our own.
 */

const NOW = Date.UTC(2026, 10, 20, 12);
const general: PublisherIdentity = { id: 'daily', name: 'The Daily', url: 'https://daily.example/feed', category: null, country: null, language: null };

function rss(items: string, channel = ''): string {
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Daily</title><link>https://daily.example/</link>${channel}${items}</channel></rss>`;
}

function item(id: string, title: string, extra = '', description = ''): string {
  return `<item><title>${title}</title><link>https://daily.example/${id}</link><guid>${id}</guid><pubDate>Fri, 20 Nov 2026 10:00:00 GMT</pubDate>${description ? `<description>${description}</description>` : ''}${extra}</item>`;
}

function articles(body: string, p: PublisherIdentity = general) {
  const parsed = parseFeed(body, { baseUrl: 'https://daily.example/feed' });
  return freshEntries(parsed, createSeen(), p, NOW).articles;
}

describe('feed categories and languages on the raw article', () => {
  it('RSS: <category> tags and <language> ride along; the publisher language is kept apart', () => {
    const [a] = articles(rss(item('a1', 'Hartley signs a new two-year deal', '<category>Sport</category><category>Rugby union</category>'), '<language>en-gb</language>'),
      { ...general, language: 'fr' });
    expect(a).toMatchObject({ categories: ['Sport', 'Rugby union'], language: 'en-gb', publisher_language: 'fr' });
  });

  it('Atom: category terms (labels when given) and xml:lang', () => {
    const atom = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xml:lang="pt-BR"><title>D</title><id>urn:d</id><updated>2026-11-20T10:00:00Z</updated>
      <entry><title>Lula visita fábrica</title><id>urn:a2</id><link href="https://daily.example/a2"/><updated>2026-11-20T10:00:00Z</updated>
      <category term="business" label="Economia &amp; Negócios"/><category term="brasil"/></entry></feed>`;
    const [a] = articles(atom);
    expect(a!.categories).toEqual(['Economia & Negócios', 'brasil']);
    expect(a!.language).toBe('pt-BR');
    expect(a!.publisher_language).toBeUndefined();
  });

  it('JSON Feed: tags and language', () => {
    const json = JSON.stringify({
      version: 'https://jsonfeed.org/version/1.1', title: 'D', language: 'de',
      items: [{ id: 'a3', url: 'https://daily.example/a3', title: 'Neue Regeln für Mieter', date_published: '2026-11-20T10:00:00Z', tags: ['Wirtschaft', 'Politics'] }],
    });
    const [a] = articles(json);
    expect(a).toMatchObject({ categories: ['Wirtschaft', 'Politics'], language: 'de' });
  });

  it('a feed without tags or language adds neither', () => {
    const [a] = articles(rss(item('a4', 'Plain headline')), { ...general, language: 'en' });
    expect(a!.categories).toBeUndefined();
    expect(a!.language).toBeUndefined();
    expect(a!.publisher_language).toBe('en');
  });
});

describe('the CPU stage reads them', () => {
  // "Hartley signs a new two-year deal" says nothing of sport on its own words
  it('an item tagged <category>Sport</category> from a general publisher is filed sports', () => {
    const untagged = prepareBatch(articles(rss(item('b1', 'Hartley signs a new two-year deal'))), NOW).ok[0]!;
    const tagged = prepareBatch(articles(rss(item('b2', 'Hartley signs a new two-year deal', '<category>Sport</category>'))), NOW).ok[0]!;
    expect(untagged.category).not.toBe('sports');
    expect(tagged.category).toBe('sports');
  });

  it('a tag that names no category leaves the model to decide', () => {
    const [a] = prepareBatch(articles(rss(item('b3', 'Shares slump as the central bank raises interest rates again', '<category>Top stories</category>'))), NOW).ok;
    expect(a!.category).toBe('business');
  });

  // Headlines the text alone reads wrongly (no prior: the first is Portuguese, the others English).
  const cases: { title: string; channel: string; publisher: string | null; want: string }[] = [
    { title: 'Día de Muertos parade draws record crowds in Mexico City', channel: '<language>en</language>', publisher: null, want: 'en' },
    { title: 'Día de Muertos parade draws record crowds in Mexico City', channel: '', publisher: 'en', want: 'en' },
    // the feed's declaration comes before the publisher's language (an English section of a French site)
    { title: 'Día de Muertos parade draws record crowds in Mexico City', channel: '<language>en-US</language>', publisher: 'fr', want: 'en' },
    { title: 'Grève SNCF : trafic perturbé lundi', channel: '<language>fr</language>', publisher: null, want: 'fr' },
    { title: 'Anne Hidalgo lance la campagne', channel: '<language>fr-FR</language>', publisher: 'en', want: 'fr' },
    { title: 'Real Madrid vence o Barcelona', channel: '', publisher: 'pt', want: 'pt' },
  ];
  it.each(cases)('$title (feed $channel, publisher $publisher) is $want', ({ title, channel, publisher, want }) => {
    const raw = articles(rss(item('l1', title), channel), { ...general, language: publisher });
    expect(prepareBatch(raw, NOW).ok[0]!.language).toBe(want);
  });

  it('the same headlines without any prior come out wrong (what the priors fix)', () => {
    const raw = articles(rss(item('l2', 'Día de Muertos parade draws record crowds in Mexico City') + item('l3', 'Grève SNCF : trafic perturbé lundi')));
    expect(prepareBatch(raw, NOW).ok.map((a) => a.language)).toEqual(['pt', 'en']);
  });

  it('enough text of another language overrules the declared one', () => {
    const fr = 'Le gouvernement a annoncé mardi une nouvelle réforme des retraites qui sera présentée au Parlement dans les prochaines semaines, selon le ministre';
    const raw = articles(rss(item('l4', 'Réforme des retraites', '', fr), '<language>en</language>'));
    expect(prepareBatch(raw, NOW).ok[0]!.language).toBe('fr');
  });
});
