import { crc32 } from 'node:zlib';
import sharp from 'sharp';

/** Test images generated with sharp itself: nothing copied from anywhere. */

/** A photo-like gradient with a bright block, so cropping has something to find. */
export async function photo(width: number, height: number, format: 'jpeg' | 'png' | 'webp' | 'gif' | 'avif' | 'tiff'): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const block = x > width * 0.6 && x < width * 0.8 && y > height * 0.3 && y < height * 0.6;
      raw[i] = block ? 250 : (x * 255) / width;
      raw[i + 1] = block ? 240 : (y * 255) / height;
      raw[i + 2] = block ? 30 : 120;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).toFormat(format).toBuffer();
}

/**
 * A decompression bomb: a valid tiny PNG whose header is rewritten to declare `w`×`h` pixels
 * (the CRC is fixed up, so decoders believe the header).
 */
export async function pngBomb(w: number, h: number): Promise<Buffer> {
  const png = Buffer.from(await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).png().toBuffer());
  // signature (8) + IHDR length (4) + "IHDR" (4) + width (4) + height (4) ...
  png.writeUInt32BE(w, 16);
  png.writeUInt32BE(h, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

export const SVG = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="800" height="450"><rect width="800" height="450"/></svg>');
export const TEXT = Buffer.from('<!DOCTYPE html><html><body>This is an error page, not an image.</body></html>');
