import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { publishStories } from '../../src/actors/store/feed-cache.js';
import { storyScore, toCachedStory } from '../../src/actors/store/feed-items.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { upsertStories, type StoryRow } from '../../src/actors/store/stories.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { openApiDocument } from '../../src/api/openapi.js';
import { databases, type TestDb } from '../helpers/db.js';
import { startApi, type ApiHarness, type Res } from '../api/harness.js';

const NOW = Date.now();
const ago = (min: number) => new Date(NOW - min * 60_000).toISOString();

/** Headlines in their own languages: each stemmed and stopped by its own configuration. */
const ARTICLES: [id: string, lang: string, title: string, snippet: string][] = [
  ['fr1', 'fr', 'Les élections municipales à Lyon', 'Les électeurs lyonnais votent dimanche'],
  ['fr2', 'fr', 'Le gouvernement présente son budget', 'Les députés débattront des dépenses'],
  ['de1', 'de', 'Die Wahlen in Bayern', 'Die Wähler entscheiden über den Landtag'],
  ['es1', 'es', 'Las elecciones en Madrid', 'Los votantes eligen alcalde'],
  ['it1', 'it', 'Le elezioni regionali in Lombardia', 'Gli elettori scelgono il presidente'],
  ['pt1', 'pt', 'As eleições no Porto', 'Os eleitores escolhem o presidente da câmara'],
  ['nl1', 'nl', 'De verkiezingen in Amsterdam', 'De kiezers kiezen een nieuwe gemeenteraad'],
  ['en1', 'en', 'Elections in Ohio draw record turnout', 'Voters elected a new governor'],
];

const ids = (r: Res): string[] => (r.body.items as { id: string }[]).map((i) => i.id).sort();

describe.each(databases)('search in each article\'s language on %s', (_name, open) => {
  let db: TestDb;
  let api: ApiHarness;

  beforeAll(async () => {
    db = await open();
    await addPublishers(db.sql, [{ id: 'lp', name: 'Lang Post', feed_url: 'https://lp.example/feed' }]);
    const rows: ArticleRow[] = ARTICLES.map(([id, language, title, snippet], i) => ({
      id, url: `https://lp.example/${id}`, url_hash: `uh-${id}`, simhash: null, title, snippet, thumbnail_url: null, publisher_id: 'lp',
      published_at: ago(10 + i), category: 'politics', region: 'eu', language, story_id: `s-${id}`, duplicate_of: null, entities: [], places: [],
    }));
    await upsertArticles(db.sql, rows);
    // each article a story of its own, in the feed cache as the store actor writes it
    const stories: StoryRow[] = rows.map((a) => {
      const row = { id: a.story_id!, title: a.title, lead_article_id: a.id, article_count: 1, publisher_count: 1, first_seen: a.published_at, updated_at: a.published_at,
        category: 'politics', regions: ['eu'], entities: [], score: 0 };
      return { ...row, score: storyScore(row) };
    });
    await upsertStories(db.sql, stories);
    const cache = new MemoryCache();
    await publishStories(cache, stories.map((st, i) => toCachedStory(st, { ...rows[i]!, publisher_name: 'Lang Post' })));
    api = await startApi(db.sql, cache, { searchHotTtlMs: 0 });
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    await db?.cleanup();
  });

  it.each([
    // a singular finds a plural through each language's stemmer
    ['élection', 'fr', ['fr1']],
    ['Wahl', 'de', ['de1']],
    ['elección', 'es', ['es1']],
    ['elezione', 'it', ['it1']],
    ['eleitor', 'pt', ['pt1']], // the plural eleitores
    ['verkiezing', 'nl', ['nl1']],
    ['election', 'en', ['en1']],
  ] as const)('"%s" with lang=%s finds the article in that language', async (q, lang, want) => {
    const r = await api.get(`/v1/search?q=${encodeURIComponent(q)}&lang=${lang}`);
    expect(r.status).toBe(200);
    expect(ids(r)).toEqual(want);
    expect(r.body.items.every((i: { language: string }) => i.language === lang)).toBe(true);
  });

  it('without lang= a query finds articles in every language whose stemmer matches it, each stopped in its own language', async () => {
    // "élection" stems in French to the word of fr1; the English stemmer does not make "election" of it
    expect(ids(await api.get(`/v1/search?q=${encodeURIComponent('élections')}`))).toContain('fr1');
    expect(ids(await api.get('/v1/search?q=election'))).toContain('en1');
    // "les" is a French stop word, a word to English: the French articles are not found by it, and none is missing for it
    expect(ids(await api.get(`/v1/search?q=${encodeURIComponent('les budget')}`))).toEqual(['fr2']);
    // a negation applies in each language
    expect(ids(await api.get(`/v1/search?q=${encodeURIComponent('élections -Lyon')}`))).not.toContain('fr1');
  });

  it('the feed with lang= keeps the stories whose lead is in that language, with cursors of its own', async () => {
    const all = await api.get('/v1/feed?region=eu&category=politics');
    expect(all.body.items.length).toBe(8);
    const fr = await api.get('/v1/feed?region=eu&category=politics&lang=fr');
    expect(fr.status).toBe(200);
    expect(fr.body.items.map((i: { story_id: string }) => i.story_id).sort()).toEqual(['s-fr1', 's-fr2']);
    const first = await api.get('/v1/feed?region=eu&category=politics&lang=fr&limit=1');
    expect(first.body.items.map((i: { story_id: string }) => i.story_id)).toEqual(['s-fr1']);
    const second = await api.get(`/v1/feed?region=eu&category=politics&lang=fr&limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.items.map((i: { story_id: string }) => i.story_id)).toEqual(['s-fr2']);
    expect(second.body.next_cursor).toBeNull();
    // a language's cursor is not another feed's
    expect((await api.get(`/v1/feed?region=eu&category=politics&limit=1&cursor=${first.body.next_cursor}`)).body.error.code).toBe('invalid_cursor');
    expect((await api.get('/v1/feed?region=eu&lang=de')).body.items.map((i: { story_id: string }) => i.story_id)).toEqual(['s-de1']);
    const atom = await api.get('/v1/feed.atom?region=eu&lang=nl');
    expect(atom.status).toBe(200);
    expect(atom.text).toContain('urn:newsagg:story:s-nl1');
    expect(atom.text).not.toContain('urn:newsagg:story:s-fr1');
  });

  it('lang= is checked, and is in the OpenAPI document', async () => {
    const r = await api.get('/v1/search?q=x&lang=xx');
    expect([r.status, r.body.error.code]).toEqual([400, 'invalid_lang']);
    expect((await api.get('/v1/feed?lang=xx')).body.error.code).toBe('invalid_lang');
    expect((await api.get('/v1/feed?lang=fr&for=me')).body.error.code).toBe('invalid_lang');
    expect((openApiDocument.paths['/v1/feed'].get as unknown as { parameters: { name: string }[] }).parameters.map((p) => p.name)).toContain('lang');
    const s = await api.get('/v1/search.atom?q=election&lang=fr');
    expect(s.status).toBe(200);
    const params = (openApiDocument.paths['/v1/search'].get as unknown as { parameters: { name: string }[] }).parameters.map((p) => p.name);
    expect(params).toContain('lang');
  });
});
