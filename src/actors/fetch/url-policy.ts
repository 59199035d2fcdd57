import { FetchError } from './errors.js';
import type { SsrfGuard } from './ssrf.js';
import type { Layer } from './types.js';

/**
 * Parses and vets a URL before anything is sent: http(s) only, no credentials, a host, and no
 * name or literal address the SSRF guard already knows is off limits (the resolved address is
 * checked again at connect time). Returns a copy without the fragment.
 */
export function checkUrl(input: string | URL, guard: SsrfGuard, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(String(input), base);
  } catch (err) {
    throw new FetchError('FETCH_BAD_URL', `not a URL: ${String(input).slice(0, 200)}`, { cause: err, url: String(input) });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchError('FETCH_BAD_URL', `scheme ${url.protocol} is not fetched`, { url: url.href });
  }
  if (url.username || url.password) {
    throw new FetchError('FETCH_BAD_URL', 'URLs with credentials are not fetched', { url: `${url.protocol}//${url.host}${url.pathname}` });
  }
  if (!url.hostname) throw new FetchError('FETCH_BAD_URL', `no host in ${url.href}`, { url: url.href });
  url.hash = '';
  guard.checkHostname(url.hostname, url.href);
  return url;
}

/** Applies {@link checkUrl} to every hop, redirect targets included. */
export function urlPolicy(guard: SsrfGuard): Layer {
  return (next) => (req) => next({ ...req, url: checkUrl(req.url, guard) });
}
