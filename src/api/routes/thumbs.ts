import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { THUMB_CACHE_CONTROL, THUMB_CONTENT_TYPE } from '../../actors/thumbs/store.js';
import { readQuery } from '../params.js';
import { HttpError, type Handler } from '../reply.js';
import type { Router } from '../router.js';
import { etagMatches } from './common.js';

const DIR = /^[0-9a-f]{2}$/;
const FILE = /^([0-9a-f]{64})\.webp$/;

/**
 * `GET /thumbs/:a/:file`: content-addressed WebP thumbnails from `<dataDir>/thumbs/<aa>/<sha256>.webp`.
 * Both segments must match the store's naming exactly (and agree with each other) before any
 * path is built, so no traversal, encoding trick or other file type can get through; the files
 * never change, hence the year-long immutable caching and the hash as ETag.
 */
export function registerThumbRoutes(router: Router, dataDir: string, wrap: (h: Handler) => Handler): void {
  const root = join(dataDir, 'thumbs');
  router.get(
    '/thumbs/:a/:file',
    wrap(async (req) => {
      readQuery(req.query, []);
      const a = req.params.a ?? '';
      const m = FILE.exec(req.params.file ?? '');
      if (!DIR.test(a) || !m || m[1]!.slice(0, 2) !== a) throw new HttpError(400, 'invalid_id', 'malformed thumbnail path');
      const hash = m[1]!;
      const etag = `"${hash}"`;
      const headers = { 'cache-control': THUMB_CACHE_CONTROL, etag };
      if (etagMatches(req.header('if-none-match'), etag)) return { status: 304, headers };
      let body: Buffer;
      try {
        body = await readFile(join(root, a, `${hash}.webp`));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new HttpError(404, 'not_found', 'no such thumbnail');
        throw err;
      }
      return { status: 200, headers: { ...headers, 'content-type': THUMB_CONTENT_TYPE, 'x-content-type-options': 'nosniff' }, body };
    }),
  );
}
