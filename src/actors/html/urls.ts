/**
 * URL helpers for page metadata: everything a page says is relative to its `<base href>` or
 * its own URL, and only http(s) links are worth keeping (no `javascript:`, `data:`, `mailto:`).
 */

const MAX_URL_LENGTH = 2048;

/** Resolve `href` against `base`; null unless the result is an http(s) URL of sane length. */
export function resolveHttpUrl(href: string | null | undefined, base: string): string | null {
  if (!href) return null;
  const h = href.trim().replace(/[\t\n\r]/g, '');
  if (h.length === 0 || h.length > MAX_URL_LENGTH) return null;
  try {
    const u = new URL(h, base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    u.hash = '';
    return u.href;
  } catch {
    return null;
  }
}

/** The hostname without a leading `www.`, or null for an invalid URL. */
export function siteHost(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return null;
  }
}

/** True when `url` is on `host` or one of its subdomains (after stripping `www.`). */
export function isSameSite(url: string, host: string): boolean {
  const h = siteHost(url);
  return h !== null && (h === host || h.endsWith(`.${host}`));
}
