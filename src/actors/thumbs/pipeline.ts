import type { PageFetch } from '../html/fetch.js';
import type { StoredThumbnail, ThumbnailStore } from './store.js';
import { DEFAULT_MAX_INPUT_BYTES, makeThumbnail, type ThumbnailFailure, type ThumbnailOptions, type ThumbnailResult } from './thumbnail.js';

export type ThumbnailForResult =
  | ({ ok: true; source: string; width: number; height: number } & StoredThumbnail)
  | { ok: false; source: string; reason: ThumbnailFailure; detail?: string };

export interface ThumbnailForOptions extends ThumbnailOptions {
  /** the safe fetcher (SSRF guard, size and time limits) behind the page-fetch signature */
  fetch: PageFetch;
  store: ThumbnailStore;
  /** where the decode runs; default in-process. The node passes a piscina-backed one. */
  make?: (bytes: Buffer, options: ThumbnailOptions) => Promise<ThumbnailResult>;
}

/**
 * Fetch an image (a feed's media or a page's og:image), make its thumbnail and store it.
 * Every failure comes back as a reason, and the article then simply keeps no thumbnail.
 */
export async function thumbnailFor(url: string, options: ThumbnailForOptions): Promise<ThumbnailForResult> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, source: url, reason: 'fetch_failed', detail: 'invalid URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return { ok: false, source: url, reason: 'fetch_failed', detail: `scheme ${parsed.protocol} not fetched` };
  }
  let body: Buffer;
  let contentType: string | null;
  try {
    const res = await options.fetch(parsed.href);
    if (res.status < 200 || res.status >= 300) return { ok: false, source: url, reason: 'fetch_failed', detail: `HTTP ${res.status}` };
    body = res.body;
    contentType = res.contentType;
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    // the fetcher's own size limit is the same verdict as ours
    if (typeof code === 'string' && /TOO_LARGE|BODY_LIMIT|SIZE/i.test(code)) return { ok: false, source: url, reason: 'too_large', detail: code };
    return { ok: false, source: url, reason: 'fetch_failed', detail: err instanceof Error ? err.message : String(err) };
  }
  const maxInputBytes = options.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  if (body.length > maxInputBytes) return { ok: false, source: url, reason: 'too_large', detail: `${body.length} bytes` };
  // an HTML error page served with 200 is common; the decoder's sniffing catches the rest
  if (contentType && /^\s*text\/html/i.test(contentType) && !looksBinary(body)) return { ok: false, source: url, reason: 'not_an_image', detail: contentType };
  const make = options.make ?? makeThumbnail;
  const result = await make(body, { maxInputBytes, maxInputPixels: options.maxInputPixels, quality: options.quality });
  if (!result.ok) return { ok: false, source: url, reason: result.reason, ...(result.detail ? { detail: result.detail } : {}) };
  const stored = await options.store.put(result.webp);
  return { ok: true, source: url, width: result.width, height: result.height, ...stored };
}

function looksBinary(b: Buffer): boolean {
  const n = Math.min(b.length, 512);
  for (let i = 0; i < n; i++) if (b[i] === 0) return true;
  return false;
}
