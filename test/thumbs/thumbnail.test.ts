import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { makeThumbnail, sniffImage, THUMB_HEIGHT, THUMB_WIDTH } from '../../src/actors/thumbs/thumbnail.js';
import { photo, pngBomb, SVG, TEXT } from './images.js';

describe('makeThumbnail', () => {
  it.each(['jpeg', 'png', 'webp', 'gif', 'avif'] as const)('makes a 400×225 WebP from a good %s (cover crop)', async (format) => {
    const r = await makeThumbnail(await photo(640, 480, format));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const meta = await sharp(r.webp).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({ format: 'webp', width: THUMB_WIDTH, height: THUMB_HEIGHT });
    expect(r.webp.length).toBeLessThan(60_000);
  });

  it('crops a portrait image to landscape instead of letterboxing it', async () => {
    const r = await makeThumbnail(await photo(300, 900, 'jpeg'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const { data, info } = await sharp(r.webp).raw().toBuffer({ resolveWithObject: true });
    // a letterbox would leave uniform bars at the left and right edges; a cover crop fills them
    const px = (x: number, y: number): number => data[(y * info.width + x) * info.channels]!;
    expect(px(0, 112)).not.toBe(px(THUMB_WIDTH - 1, 112));
  });

  it.each([
    ['a truncated JPEG', async () => (await photo(640, 480, 'jpeg')).subarray(0, 3000), 'corrupt'],
    ['a JPEG header followed by junk', async () => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(5000, 0x41)]), 'corrupt'],
    ['a PNG with a damaged body', async () => { const b = Buffer.from(await photo(320, 240, 'png')); b.fill(0x13, 60, 400); return b; }, 'corrupt'],
    ['a decompression bomb (1×1 PNG declaring 20000×20000)', async () => pngBomb(20_000, 20_000), 'too_many_pixels'],
    ['HTML text', async () => TEXT, 'not_an_image'],
    ['empty bytes', async () => Buffer.alloc(0), 'not_an_image'],
    ['an SVG', async () => SVG, 'unsupported_format'],
    ['a TIFF', async () => photo(320, 240, 'tiff'), 'unsupported_format'],
    ['a tracking pixel', async () => photo(1, 1, 'gif'), 'too_small'],
  ])('rejects %s', async (_label, make, reason) => {
    const r = await makeThumbnail(await make());
    expect(r).toMatchObject({ ok: false, reason });
  });

  it('rejects an oversized body before decoding it', async () => {
    const big = Buffer.concat([await photo(640, 480, 'jpeg'), Buffer.alloc(10 * 1024 * 1024)]);
    expect(await makeThumbnail(big)).toMatchObject({ ok: false, reason: 'too_large' });
    expect(await makeThumbnail(await photo(640, 480, 'jpeg'), { maxInputBytes: 1000 })).toMatchObject({ ok: false, reason: 'too_large' });
  });

  it('honours maxInputPixels', async () => {
    const img = await photo(640, 480, 'png');
    expect(await makeThumbnail(img, { maxInputPixels: 640 * 480 - 1 })).toMatchObject({ ok: false, reason: 'too_many_pixels' });
    expect((await makeThumbnail(img, { maxInputPixels: 640 * 480 })).ok).toBe(true);
  });
});

describe('sniffImage', () => {
  it.each([
    [Buffer.from([0xff, 0xd8, 0xff, 0xdb]), 'jpeg'],
    [Buffer.from('GIF89a......'), 'gif'],
    [Buffer.from('RIFF\0\0\0\0WEBPVP8 '), 'webp'],
    [Buffer.from('BM\0\0\0\0'), 'other_image'],
    [SVG, 'other_image'],
    [TEXT, null],
  ])('%#', (bytes, kind) => expect(sniffImage(bytes)).toBe(kind));
});
