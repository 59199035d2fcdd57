import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { TaskPool } from '../../src/runtime/task-pool.js';
import { pooledMakeThumbnail } from '../../src/actors/thumbs/task.js';
import { photo, pngBomb } from './images.js';

describe('thumbnail task on the shared worker pool', () => {
  const pool = new TaskPool({ threads: 1, typescript: true });
  afterAll(() => pool.close());
  const make = pooledMakeThumbnail(pool);

  it('returns a Buffer WebP from a worker thread, and reasons for bad input', async () => {
    const ok = await make(await photo(640, 360, 'png'), {});
    expect(ok.ok).toBe(true);
    if (ok.ok) {
      expect(Buffer.isBuffer(ok.webp)).toBe(true);
      expect((await sharp(ok.webp).metadata()).width).toBe(400);
    }
    expect(await make(await pngBomb(30_000, 30_000), {})).toMatchObject({ ok: false, reason: 'too_many_pixels' });
  });
});
