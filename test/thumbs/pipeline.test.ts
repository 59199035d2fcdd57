import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { thumbnailFor } from '../../src/actors/thumbs/pipeline.js';
import { ThumbnailStore } from '../../src/actors/thumbs/store.js';
import { plainFetch, startSite, type Route } from '../html/server.js';
import { photo, pngBomb, TEXT } from './images.js';

let dataDir = '';
let store: ThumbnailStore;
const closers: (() => Promise<void>)[] = [];
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'newsagg-thumbs-'));
  store = new ThumbnailStore(dataDir);
});
afterEach(async () => {
  while (closers.length) await closers.pop()!();
  await rm(dataDir, { recursive: true, force: true });
});

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

describe('thumbnailFor against a local image server', () => {
  it('fetches, resizes and stores a good image content-addressed; equal images share one file', async () => {
    const jpeg = await photo(800, 600, 'jpeg');
    const site = await startSite({
      '/a.jpg': { type: 'image/jpeg', body: jpeg },
      '/same.jpg': { type: 'application/octet-stream', body: jpeg },
    });
    closers.push(site.close);
    const r = await thumbnailFor(`${site.url}/a.jpg`, { fetch: plainFetch, store });
    expect(r).toMatchObject({ ok: true, width: 400, height: 225, source: `${site.url}/a.jpg` });
    if (!r.ok) return;
    expect(r.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(r.relPath).toBe(`${r.hash.slice(0, 2)}/${r.hash}.webp`);
    expect(r.path).toBe(join(dataDir, 'thumbs', r.hash.slice(0, 2), `${r.hash}.webp`));
    const onDisk = await readFile(r.path);
    expect(ThumbnailStore.hashOf(onDisk)).toBe(r.hash);
    expect((await sharp(onDisk).metadata()).format).toBe('webp');

    const again = await thumbnailFor(`${site.url}/same.jpg`, { fetch: plainFetch, store });
    expect(again.ok && again.hash).toBe(r.hash);
    expect(await allFiles(join(dataDir, 'thumbs'))).toEqual([`${r.hash}.webp`]); // no temp files left behind
    expect(await store.get(r.hash)).toEqual(onDisk);
  });

  it.each([
    ['a 404', { status: 404, type: 'text/html', body: 'nope' }, 'fetch_failed'],
    ['an HTML page served as 200', { type: 'text/html', body: TEXT }, 'not_an_image'],
    ['text with an image content type', { type: 'image/png', body: TEXT }, 'not_an_image'],
  ] as [string, Route, string][])('rejects %s', async (_label, route, reason) => {
    const site = await startSite({ '/img': route });
    closers.push(site.close);
    expect(await thumbnailFor(`${site.url}/img`, { fetch: plainFetch, store })).toMatchObject({ ok: false, reason });
    expect(await allFiles(dataDir)).toEqual([]);
  });

  it.each([
    ['a corrupt JPEG', async () => (await photo(640, 480, 'jpeg')).subarray(0, 2500), 'corrupt'],
    ['a decompression bomb', async () => pngBomb(20_000, 20_000), 'too_many_pixels'],
    ['a huge body', async () => Buffer.concat([await photo(640, 480, 'jpeg'), Buffer.alloc(11 * 1024 * 1024)]), 'too_large'],
  ])('rejects %s and stores nothing', async (_label, make, reason) => {
    const site = await startSite({ '/img': { type: 'image/jpeg', body: await make() } });
    closers.push(site.close);
    expect(await thumbnailFor(`${site.url}/img`, { fetch: plainFetch, store })).toMatchObject({ ok: false, reason });
    expect(await allFiles(dataDir)).toEqual([]);
  });

  it('reports fetch failures and refuses non-http sources', async () => {
    const site = await startSite({});
    const url = `${site.url}/gone.jpg`;
    await site.close(); // nothing listens any more
    expect(await thumbnailFor(url, { fetch: plainFetch, store })).toMatchObject({ ok: false, reason: 'fetch_failed' });
    expect(await thumbnailFor('file:///etc/passwd', { fetch: plainFetch, store })).toMatchObject({ ok: false, reason: 'fetch_failed' });
    expect(await thumbnailFor('not a url', { fetch: plainFetch, store })).toMatchObject({ ok: false, reason: 'fetch_failed' });
  });

  it('maps the fetcher size-limit error to too_large', async () => {
    const tooBig = async (): Promise<never> => { throw Object.assign(new Error('body over limit'), { code: 'FETCH_TOO_LARGE' }); };
    expect(await thumbnailFor('https://img.example/x.jpg', { fetch: tooBig, store })).toMatchObject({ ok: false, reason: 'too_large' });
  });
});

describe('ThumbnailStore', () => {
  it('refuses anything that is not a hash as a path', async () => {
    expect(() => store.pathFor('../../etc/passwd')).toThrow(TypeError);
    expect(await store.get('../x')).toBeNull();
    expect(await store.has('0'.repeat(64))).toBe(false);
    expect(await store.get('0'.repeat(64))).toBeNull();
  });
});
