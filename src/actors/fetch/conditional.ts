import type { Layer } from './types.js';

/**
 * Conditional GET: sends If-None-Match / If-Modified-Since from what the publisher stored, and
 * on a 304 keeps the stored validators when the server does not repeat them, so the next poll
 * can still be conditional.
 */
export function conditional(): Layer {
  return (next) => async (req) => {
    const validators = req.validators ?? {};
    const headers = { ...req.headers };
    if (validators.etag) headers['if-none-match'] = validators.etag;
    if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
    const res = await next({ ...req, headers, validators: undefined });
    if (res.status !== 304) return res;
    const kept = { ...res.headers };
    if (!kept['etag'] && validators.etag) kept['etag'] = validators.etag;
    if (!kept['last-modified'] && validators.lastModified) kept['last-modified'] = validators.lastModified;
    return { ...res, headers: kept };
  };
}
