import sharp from 'sharp';

/**
 * One image in, one 400×225 WebP thumbnail out, or a reason why not. Publisher images are
 * untrusted input: the byte size is checked before anything is decoded, the format is sniffed
 * from magic bytes against an allowlist (never trusting Content-Type or the URL), and the pixel
 * count is read from the header so a "decompression bomb" (a tiny file declaring a huge canvas)
 * is refused before libvips allocates anything. Sharp's own `limitInputPixels` backs that up.
 */

export const THUMB_WIDTH = 400;
export const THUMB_HEIGHT = 225;
export const DEFAULT_MAX_INPUT_BYTES = 10 * 1024 * 1024;
export const DEFAULT_MAX_INPUT_PIXELS = 40_000_000;
/** Smaller sources (tracking pixels, favicons) would be blown up into mush. */
export const MIN_SOURCE_WIDTH = 120;
export const MIN_SOURCE_HEIGHT = 68;

export type ThumbnailFailure =
  | 'not_an_image'
  | 'corrupt'
  | 'too_large'
  | 'too_many_pixels'
  | 'too_small'
  | 'unsupported_format'
  | 'fetch_failed';

export type ThumbnailResult =
  | { ok: true; webp: Buffer; width: number; height: number }
  | { ok: false; reason: ThumbnailFailure; detail?: string };

export interface ThumbnailOptions {
  maxInputBytes?: number;
  maxInputPixels?: number;
  /** WebP quality 1-100; default 75 */
  quality?: number;
}

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'avif';
type Sniffed = ImageFormat | 'other_image' | null;

/** The image format from magic bytes; `other_image` for images we do not accept (SVG, TIFF, BMP, HEIC, ICO). */
export function sniffImage(b: Buffer): Sniffed {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg';
  if (b.length >= 8 && b.readUInt32BE(0) === 0x89504e47 && b.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (b.length >= 6 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a')) return 'gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  if (b.length >= 12 && b.toString('latin1', 4, 8) === 'ftyp') {
    const brands = b.toString('latin1', 8, Math.min(b.length, 8 + b.readUInt32BE(0)));
    return /avif|avis/.test(brands) ? 'avif' : /heic|heix|hevc|mif1|msf1/.test(brands) ? 'other_image' : null;
  }
  if (b.length >= 4 && (b.toString('latin1', 0, 4) === 'II*\0' || b.toString('latin1', 0, 4) === 'MM\0*')) return 'other_image';
  if (b.length >= 2 && b.toString('latin1', 0, 2) === 'BM') return 'other_image';
  if (b.length >= 4 && b.readUInt32BE(0) === 0x00000100) return 'other_image'; // ICO
  if (/^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!DOCTYPE svg[^>]*>\s*)?<svg[\s>]/i.test(b.toString('utf8', 0, Math.min(b.length, 1024)))) return 'other_image';
  return null;
}

/** Make the thumbnail. Never throws: every failure is a reason. */
export async function makeThumbnail(bytes: Buffer, options: ThumbnailOptions = {}): Promise<ThumbnailResult> {
  const maxBytes = options.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const maxPixels = options.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
  if (bytes.length > maxBytes) return { ok: false, reason: 'too_large', detail: `${bytes.length} bytes > ${maxBytes}` };
  const sniffed = sniffImage(bytes);
  if (sniffed === null) return { ok: false, reason: 'not_an_image' };
  if (sniffed === 'other_image') return { ok: false, reason: 'unsupported_format' };

  const input = (): sharp.Sharp => sharp(bytes, { limitInputPixels: maxPixels, failOn: 'truncated', animated: false, sequentialRead: true });
  let meta: sharp.Metadata;
  try {
    meta = await input().metadata();
  } catch (err) {
    return classify(err);
  }
  // sharp names AVIF "heif"; anything else disagreeing with the magic bytes is suspicious
  const format = meta.format === 'heif' && meta.compression === 'av1' ? 'avif' : meta.format;
  if (format !== sniffed) return { ok: false, reason: 'unsupported_format', detail: `declared ${sniffed}, decoded ${String(meta.format)}` };
  const width = meta.autoOrient?.width ?? meta.width ?? 0;
  const height = meta.autoOrient?.height ?? meta.height ?? 0;
  if (width <= 0 || height <= 0) return { ok: false, reason: 'corrupt', detail: 'no dimensions' };
  if (width * height > maxPixels) return { ok: false, reason: 'too_many_pixels', detail: `${width}×${height}` };
  if (width < MIN_SOURCE_WIDTH || height < MIN_SOURCE_HEIGHT) return { ok: false, reason: 'too_small', detail: `${width}×${height}` };

  try {
    const webp = await input()
      .rotate() // honour EXIF orientation before cropping
      .resize(THUMB_WIDTH, THUMB_HEIGHT, { fit: 'cover', position: sharp.strategy.attention })
      .webp({ quality: options.quality ?? 75, effort: 4 })
      .toBuffer();
    return { ok: true, webp, width: THUMB_WIDTH, height: THUMB_HEIGHT };
  } catch (err) {
    return classify(err);
  }
}

function classify(err: unknown): ThumbnailResult {
  const message = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(message)) return { ok: false, reason: 'too_many_pixels', detail: message };
  if (/unsupported image format/i.test(message)) return { ok: false, reason: 'not_an_image', detail: message };
  return { ok: false, reason: 'corrupt', detail: message };
}
