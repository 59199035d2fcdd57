/**
 * Calls to the JSON API. `api()` answers `{ok, status, body}` and never throws, so a view can
 * tell an endpoint this node does not offer (404) from a failure and decide what each means.
 */

export interface ApiResult<T> {
  ok: boolean;
  /** 0 = the network failed */
  status: number;
  /** the parsed JSON body, or null (204, not JSON, network failure); unchecked: callers look before they use it */
  body: T | null;
}

export interface ApiOptions {
  method?: string;
  token?: string;
  /** sent as JSON */
  json?: unknown;
  /** sent as is, with `type` as its content type */
  text?: string;
  type?: string;
  cache?: RequestCache;
}

/** The error document every API failure carries. */
export interface ApiError {
  error?: { code?: string; message?: string };
}

/** Where the admin token typed on the admin page is kept (sessionStorage: this tab only). */
export const ADMIN_TOKEN_KEY = 'newsagg_admin_token';
export const adminToken = (): string => sessionStorage.getItem(ADMIN_TOKEN_KEY) || '';

/** Tells the page whether the network answered (`newsagg:network`, detail `{online}`): the offline notice listens. */
function network(online: boolean): void {
  document.dispatchEvent(new CustomEvent('newsagg:network', { detail: { online } }));
}

/** A JSON request: {ok, status, body}. Never throws. */
export async function api<T>(url: string, opts?: ApiOptions): Promise<ApiResult<T>> {
  const o = opts ?? {};
  const headers: Record<string, string> = { accept: 'application/json' };
  if (o.token) headers.authorization = 'Bearer ' + o.token;
  let body: string | undefined;
  if (o.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(o.json);
  } else if (o.text !== undefined) {
    headers['content-type'] = o.type || 'text/plain';
    body = o.text;
  }
  try {
    const r = await fetch(url, { method: o.method || 'GET', headers, body, credentials: 'same-origin', cache: o.cache || 'default' });
    const data = r.status === 204 ? null : ((await r.json().catch(() => null)) as T | null);
    network(r.headers.get('x-newsagg-offline') !== '1');
    return { ok: r.ok, status: r.status, body: data };
  } catch {
    network(false);
    return { ok: false, status: 0, body: null };
  }
}

/** A person-readable reason for a failed api() call. */
export function problem(res: { status: number; body: unknown }): string {
  if (res.status === 0) return 'the server could not be reached';
  const m = (res.body as ApiError | null)?.error?.message;
  return m ? m : 'the server answered ' + res.status;
}
