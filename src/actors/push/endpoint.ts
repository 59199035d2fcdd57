import { FetchError, SsrfGuard, checkUrl } from '../fetch/index.js';
import { NewsaggError } from '../../runtime/errors.js';

/**
 * Which push endpoints are posted to. A browser hands us its push service's URL, so the URL is
 * hostile input like a feed URL: https only (plain http only to a loopback host, and only when
 * `--push-allow-http` says so, for tests), no credentials, at most ENDPOINT_MAX characters, and
 * a host the fetcher's SSRF guard accepts (no private, loopback or metadata address unless
 * `--fetch-allowlist` lets it through). The guard checks again at every connection, so a name
 * that later resolves elsewhere is refused then.
 */

export const ENDPOINT_MAX = 2048;

export class PushEndpointError extends NewsaggError {
  constructor(message: string, cause?: unknown) {
    super('PUSH_ENDPOINT_INVALID', message, { cause });
  }
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** The endpoint as a URL, checked without DNS; throws PushEndpointError. */
export function checkEndpointUrl(endpoint: string, guard: SsrfGuard, allowHttp: boolean): URL {
  if (endpoint.length > ENDPOINT_MAX) throw new PushEndpointError(`the endpoint is longer than ${ENDPOINT_MAX} characters`);
  let url: URL;
  try {
    url = checkUrl(endpoint, guard);
  } catch (err) {
    throw new PushEndpointError(err instanceof FetchError ? err.userMessage.replace('the feed URL', 'the endpoint') : 'the endpoint is not a URL', err);
  }
  if (url.protocol === 'http:' && !(allowHttp && LOOPBACK.test(url.host.replace(/:\d+$/, '')))) {
    throw new PushEndpointError('the endpoint must be an https URL');
  }
  return url;
}

/** The same, and its host resolved through the guard (a name that resolves only to refused addresses is refused). */
export async function checkEndpoint(endpoint: string, guard: SsrfGuard, allowHttp: boolean): Promise<URL> {
  const url = checkEndpointUrl(endpoint, guard, allowHttp);
  try {
    await guard.resolve(url.hostname);
  } catch (err) {
    const why = err instanceof FetchError && err.code === 'SSRF_BLOCKED' ? 'the endpoint points to a private or reserved address' : "the endpoint's host could not be resolved";
    throw new PushEndpointError(why, err);
  }
  return url;
}
