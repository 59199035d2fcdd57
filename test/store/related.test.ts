import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CursorCodec } from '../../src/api/cursor.js';
import { FeedService } from '../../src/api/feed.js';
import { upsertArticles, type ArticleRow } from '../../src/actors/store/articles.js';
import { pickRelated, toCachedStory, type HeadlineCandidate } from '../../src/actors/store/feed-items.js';
import { addPublishers } from '../../src/actors/store/publishers.js';
import { storyHeadlines, withRelated } from '../../src/actors/store/related.js';
import { upsertStories, type StoryRow } from '../../src/actors/store/stories.js';
import { MemoryCache } from '../../src/runtime/cache-memory.js';
import { databases, type TestDb } from '../helpers/db.js';

const lead = { article_id: 'a0', publisher_id: 'p0', title: 'Bridge reopens after repairs' };
const c = (id: string, publisher: string, title: string): HeadlineCandidate => ({ id, title, publisher_id: publisher, publisher_name: `Pub ${publisher}` });

describe('pickRelated', () => {
  it.each([
    ['nothing to pick', [], []],
    ['other publishers, in the order given, at most three', [c('a1', 'p1', 'One'), c('a2', 'p2', 'Two'), c('a3', 'p3', 'Three'), c('a4', 'p4', 'Four')], ['a1', 'a2', 'a3']],
    ['never the lead itself or its publisher', [c('a0', 'p0', 'Lead'), c('a5', 'p0', 'Same outlet, other piece'), c('a1', 'p1', 'One')], ['a1']],
    ['one headline per publisher', [c('a1', 'p1', 'One'), c('a2', 'p1', 'One again'), c('a3', 'p2', 'Two')], ['a1', 'a3']],
    ['not the lead headline again, whatever the case, punctuation or masthead', [c('a1', 'p1', 'BRIDGE reopens after repairs!'), c('a2', 'p2', 'Bridge reopens after repairs | Pub p2'), c('a3', 'p3', 'Traffic flows again')], ['a3']],
    ['not the same headline twice', [c('a1', 'p1', 'Traffic flows again'), c('a2', 'p2', 'Traffic flows again.'), c('a3', 'p3', 'Mayor cuts ribbon')], ['a1', 'a3']],
    ['not the lead under a label', [c('a1', 'p1', 'Opinion: Bridge reopens after repairs'), c('a2', 'p2', 'Analysis - bridge reopens after repairs'), c('a3', 'p3', 'Mayor cuts ribbon')], ['a3']],
    ['not a near-copy of the lead', [c('a1', 'p1', 'Bridge reopens after long repairs'), c('a3', 'p3', 'Mayor cuts ribbon')], ['a3']],
    ['not a near-copy of one already picked', [c('a1', 'p1', 'Commuters cheer as traffic flows again'), c('a2', 'p2', 'Live: commuters cheer as traffic flows again'), c('a3', 'p3', 'Commuters cheer as traffic flows again downtown')], ['a1']],
    ['other headlines sharing a few words stay', [c('a1', 'p1', 'Bridge tolls to rise next year'), c('a2', 'p2', 'Repairs cost city millions')], ['a1', 'a2']],
  ])('%s', (_name, candidates, want) => {
    expect(pickRelated(lead, candidates).map((r) => r.article_id)).toEqual(want);
  });

  it('shows headlines as readers see them: without wire slugs or their own masthead', () => {
    expect(pickRelated(lead, [c('a1', 'p1', 'UPDATE 2-Traffic flows again | Pub p1')])).toEqual([
      { article_id: 'a1', title: 'Traffic flows again', publisher_name: 'Pub p1', click_url: '/r/a1' },
    ]);
  });
});

const T = Date.parse('2026-11-20T12:00:00Z');
const at = (min: number) => new Date(T + min * 60_000).toISOString().replace('.000', '');
function art(id: string, publisher: string, title: string, minute: number, over: Partial<ArticleRow> = {}): ArticleRow {
  return {
    id, url: `https://${publisher}.example/${id}`, url_hash: `uh-${id}`, simhash: null, title, snippet: null, thumbnail_url: null, publisher_id: publisher,
    published_at: at(minute), category: 'world', region: 'eu', language: 'en', story_id: 'st', duplicate_of: null, entities: [], places: [], ...over,
  };
}

describe.each(databases)('headlines of other publishers on %s', (_name, open) => {
  let db: TestDb;
  const story: StoryRow = {
    id: 'st', title: 'Bridge reopens after repairs', lead_article_id: 'lead', article_count: 8, publisher_count: 6, first_seen: at(0), updated_at: at(60),
    category: 'world', regions: ['eu'], entities: [], score: 5,
  };
  const single: StoryRow = { ...story, id: 'solo', lead_article_id: 'solo-lead', article_count: 1, publisher_count: 1, score: 4 };

  beforeAll(async () => {
    db = await open();
    await addPublishers(db.sql, ['p0', 'p1', 'p2', 'p3', 'p4', 'p5'].map((p) => ({ id: p, name: `Pub ${p}`, feed_url: `https://${p}.example/feed` })));
    await upsertArticles(db.sql, [
      art('lead', 'p0', 'Bridge reopens after repairs', 0),
      art('p0-more', 'p0', 'Bridge: what changed', 50),
      art('p1-old', 'p1', 'Repairs finished early', 10),
      art('p1-new', 'p1', 'Commuters return to the bridge', 40),
      art('p2-same', 'p2', 'Bridge reopens after repairs | Pub p2', 45),
      art('p3-copy', 'p3', 'Wire copy of the lead', 55, { duplicate_of: 'lead' }),
      art('p4', 'p4', 'Mayor cuts the ribbon', 30),
      art('p5', 'p5', 'Traffic returns to normal', 20),
      art('solo-lead', 'p1', 'A story of one article', 5, { story_id: 'solo' }),
    ]);
    await upsertStories(db.sql, [story, single]);
  }, 120_000);
  afterAll(async () => db?.cleanup());

  it('reads each story\'s newest originals of other publishers in one statement', async () => {
    const got = await storyHeadlines(db.sql, [{ id: 'st', leadPublisherId: 'p0' }, { id: 'none', leadPublisherId: 'p0' }]);
    expect(got.get('st')!.map((h) => h.id)).toEqual(['p2-same', 'p1-new', 'p4', 'p5', 'p1-old']);
    expect(got.get('st')![0]!.publisher_name).toBe('Pub p2');
    expect(got.has('none')).toBe(false);
  });

  it('fills the feed entries of the stories written, and leaves single-article stories alone', async () => {
    const lead = { ...art('lead', 'p0', 'Bridge reopens after repairs', 0), publisher_name: 'Pub p0' };
    const [withHeadlines, alone] = await withRelated(db.sql, [toCachedStory(story, lead), toCachedStory(single, { ...art('solo-lead', 'p1', 'A story of one article', 5), publisher_name: 'Pub p1' })]);
    expect(withHeadlines!.item.related).toEqual([
      { article_id: 'p1-new', title: 'Commuters return to the bridge', publisher_name: 'Pub p1', click_url: '/r/p1-new' },
      { article_id: 'p4', title: 'Mayor cuts the ribbon', publisher_name: 'Pub p4', click_url: '/r/p4' },
      { article_id: 'p5', title: 'Traffic returns to normal', publisher_name: 'Pub p5', click_url: '/r/p5' },
    ]);
    expect(alone!.item.related).toBeUndefined();
  });

  it('a feed rebuilt from the database carries them too', async () => {
    const feed = new FeedService({ sql: db.sql, cache: new MemoryCache(), codec: new CursorCodec('k') });
    const page = await feed.page({ region: 'global', category: 'top', cursor: null, limit: 10, related: true });
    const item = page.items.find((i) => i.story_id === 'st')!;
    expect(item.publisher_id).toBe('p0');
    expect(item.related?.map((r) => r.article_id)).toEqual(['p1-new', 'p4', 'p5']);
    // only when asked: they double a page's bytes
    const plain = await feed.page({ region: 'global', category: 'top', cursor: null, limit: 10 });
    expect(plain.items.map((i) => i.story_id)).toEqual(page.items.map((i) => i.story_id));
    expect(plain.items.every((i) => !('related' in i))).toBe(true);
  });
});
