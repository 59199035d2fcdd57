import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPlaceholderName, nameAfterPoll } from '../../src/actors/publisher/name.js';
import { SqlPublisherStore } from '../../src/actors/publisher/sql-store.js';
import { addPublishers, getPublishers } from '../../src/actors/store/publishers.js';
import { scratchPostgres, type TestDb } from '../helpers/db.js';
import { FeedServer } from '../publisher/feed-server.js';
import { makeNode, seededRandom } from '../publisher/harness.js';

describe('publisher names', () => {
  it.each([
    ['', 'https://feeds.example.com/rss', true],
    ['feeds.example.com', 'https://feeds.example.com/rss', true],
    ['FEEDS.EXAMPLE.COM', 'https://feeds.example.com/rss', true],
    ['example.com', 'https://www.example.com/rss', true],
    ['www.example.com', 'https://www.example.com/rss', true],
    ['https://www.example.com/', 'https://www.example.com/rss', true],
    ['127.0.0.1', 'http://127.0.0.1:8123/feed', true],
    ['Example Daily', 'https://www.example.com/rss', false],
    ['Scroll.in', 'https://feeds.feedburner.com/x', false],
    // a brand's own spelling of its host was chosen; all capitals were not
    ['Investing.com', 'https://www.investing.com/rss/news.rss', false],
    ['GSMArena.com', 'https://www.gsmarena.com/rss.php3', false],
    ['https://www.Example.com/', 'https://www.example.com/rss', true],
  ])('%j is a placeholder for %s: %s', (name, url, want) => {
    expect(isPlaceholderName(name, url)).toBe(want);
  });
  it.each([
    ['a host gives way to the feed title', '127.0.0.1', 'Local Gazette', 'Local Gazette'],
    ['a chosen name stays', 'My Paper', 'Local Gazette', 'My Paper'],
    ['no title: the placeholder stays', '127.0.0.1', null, '127.0.0.1'],
    ['a title that is itself the host changes nothing', '127.0.0.1', '127.0.0.1', '127.0.0.1'],
    ['spaces collapsed', '', '  Local \n Gazette ', 'Local Gazette'],
  ])('%s', (_n, current, title, want) => {
    expect(nameAfterPoll(current, 'http://127.0.0.1:8123/feed', title)).toBe(want);
  });
});

describe('a publisher added by URL is named after its feed once polled', () => {
  let db: TestDb;
  let server: FeedServer;
  beforeAll(async () => {
    db = await scratchPostgres();
    server = await new FeedServer().start();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await db?.cleanup();
  });

  it('replaces the host placeholder in the publishers table (what every article shows), keeps a chosen name', { timeout: 60_000 }, async () => {
    server.add('g');
    server.add('h');
    server.publish('g', 2, Date.UTC(2026, 5, 1));
    server.publish('h', 2, Date.UTC(2026, 5, 1));
    const gUrl = server.url('g');
    await addPublishers(db.sql, [
      { id: 'pub_g', name: new URL(gUrl).hostname, feed_url: gUrl },
      { id: 'pub_h', name: 'Chosen Name', feed_url: server.url('h') },
    ]);
    const n = makeNode({ start: Date.UTC(2026, 5, 1), store: new SqlPublisherStore(db.sql, () => n.clock.now(), seededRandom) });
    try {
      expect(await n.status('pub_g')).toMatchObject({ name: '127.0.0.1' });
      await n.status('pub_h');
      await n.run(60 * 60_000);
      expect((await n.status('pub_g')).name).toBe('Test feed g');
      const rows = new Map((await getPublishers(db.sql, ['pub_g', 'pub_h'])).map((r) => [r.id, r.name]));
      expect(rows.get('pub_g')).toBe('Test feed g');
      expect(rows.get('pub_h')).toBe('Chosen Name');
    } finally {
      await n.close();
    }
  });
});
