import iconv from 'iconv-lite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FeedServer } from './feed-server.js';
import { makeNode, type Node } from './harness.js';

const MIN = 60_000;

let server: FeedServer;
const nodes: Node[] = [];

beforeEach(async () => {
  server = await new FeedServer().start();
});
afterEach(async () => {
  for (const n of nodes.splice(0)) await n.close();
  await server.close();
});

/**
 * A polled feed is decoded with the charset its server names: the fetcher reads it from
 * Content-Type, and the publisher hands it to the parser with the body (it used to be dropped, so
 * a windows-1251 feed without an XML declaration came out as Latin-1 mojibake).
 */
describe('the HTTP charset of a polled feed', () => {
  it('reaches the parser: a windows-1251 feed without a declaration is read as Cyrillic', async () => {
    const title = 'Новости дня: погода и транспорт';
    const xml = `<rss version="2.0"><channel><title>Лента</title><item><title>${title}</title><link>https://example.test/ru/1</link><guid>ru-1</guid></item></channel></rss>`;
    server.routes.set('/ru', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml; charset=windows-1251' }).end(iconv.encode(xml, 'win1251'));
    });
    const n = makeNode();
    nodes.push(n);
    n.send('ru', { type: 'configure', url: `http://ru.sim.test:${server.port}/ru` });
    await n.run(16 * MIN);
    expect(n.emitted.map((a) => a.title)).toEqual([title]);
  });
});
