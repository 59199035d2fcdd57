import { hash, randomFillSync } from 'node:crypto';
import { HttpError, type Request } from '../reply.js';

/**
 * Who a reader is (DESIGN §6): the bearer of a reader token (`Authorization: Bearer <token>`,
 * e.g. a REST client's API token, or a token the client minted itself), or else the
 * `newsagg_reader` cookie the server sets on the first response to a caller that sent neither.
 * The server keeps no token: a reader's id is a hash of it, the same on every node and after
 * every restart, so clicks and interests stay with the reader and a stolen database names no
 * usable token.
 */

export const READER_COOKIE = 'newsagg_reader';
/** a year: a browser stays the same reader until the cookie expires or DELETE /v1/me forgets it */
const COOKIE_MAX_AGE_S = 365 * 86_400;
/** what a token may look like: printable, no separators a header or cookie could split on */
const TOKEN = /^[A-Za-z0-9._~+/=-]{16,256}$/;

export interface Reader {
  /** stable id: `r_` + 22 characters of a hash of the token */
  id: string;
  from: 'token' | 'cookie';
}

/** The reader id of a token. */
export function readerIdOf(token: string): string {
  // one-shot hash (no Hash object per request): SHA-256 of 'newsagg-reader\0' + token, as before
  return `r_${hash('sha256', `newsagg-reader\0${token}`, 'base64url').slice(0, 22)}`;
}

/**
 * The reader a request names (bearer token first, then the cookie), or null when it names none.
 * An Authorization header that is not a usable reader token is a 401 `invalid_token` naming what
 * is wrong with it, never a silent new reader: a client whose token is refused must learn so,
 * or its interests would go to a stranger and be lost. A malformed cookie (the server never sets
 * one) counts as none: the caller is given a fresh cookie.
 */
export function readerOf(req: Request): Reader | null {
  const r = identify(req);
  if (typeof r === 'string') {
    throw new HttpError(401, 'invalid_token', r, {
      headers: { 'www-authenticate': `Bearer realm="newsagg-reader", error="invalid_token"`, 'cache-control': 'no-store' },
    });
  }
  return r;
}

/** `readerOf` for routes that serve anyone (pages, click redirects): a refused token counts as no reader. */
export function readerIfAny(req: Request): Reader | null {
  const r = identify(req);
  return typeof r === 'string' ? null : r;
}

/** The reader, null for none, or what is wrong with the Authorization header. */
function identify(req: Request): Reader | null | string {
  const auth = req.header('authorization');
  if (auth !== undefined) {
    // the common form first, without a match object: 'Bearer <token>' (a token has no spaces)
    if (auth.startsWith('Bearer ')) {
      const t = auth.slice(7);
      if (TOKEN.test(t)) return { id: readerIdOf(t), from: 'token' };
    }
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m && TOKEN.test(m[1]!)) return { id: readerIdOf(m[1]!), from: 'token' };
    return tokenProblem(auth);
  }
  const cookie = cookieValue(req.header('cookie'), READER_COOKIE);
  if (cookie !== null && TOKEN.test(cookie)) return { id: readerIdOf(cookie), from: 'cookie' };
  return null;
}

/** What is wrong with an Authorization header that names no reader, in words a client can act on. */
export function tokenProblem(auth: string): string {
  const scheme = /^\s*(\S*)/.exec(auth)![1]!;
  if (scheme.toLowerCase() !== 'bearer') {
    return `the Authorization header must be "Bearer <reader token>"; it uses ${scheme ? `the scheme "${printable(scheme.slice(0, 20))}"` : 'no scheme'}`;
  }
  const token = auth.trim().slice(scheme.length).trim();
  if (token === '') return 'the Authorization header has no token after "Bearer"';
  if (/\s/.test(token)) return 'a reader token has no spaces; the Authorization header holds more than one word after "Bearer"';
  if (token.length < 16 || token.length > 256) return `a reader token is 16 to 256 characters long; this one has ${token.length}`;
  const bad = [...token].find((c) => !/[A-Za-z0-9._~+/=-]/.test(c))!;
  return `a reader token may hold only the letters A-Z and a-z, digits and . _ ~ + / = -; this one has "${printable(bad)}"`;
}

function printable(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f"\\]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The value of cookie `name` in a Cookie header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (let at = header.indexOf(name); at >= 0; at = header.indexOf(name, at + 1)) {
    const before = at === 0 ? ' ' : header[at - 1]!;
    if ((before === ' ' || before === ';') && header[at + name.length] === '=') {
      const start = at + name.length + 1;
      const end = header.indexOf(';', start);
      return header.slice(start, end < 0 ? header.length : end).trim();
    }
  }
  return null;
}

// 128-bit tokens from a pooled random buffer: one getrandom call per 256 readers
const POOL = Buffer.alloc(16 * 256);
let poolAt = POOL.length;

/** A fresh reader token (22 base64url characters, 128 random bits). */
export function mintToken(): string {
  if (poolAt >= POOL.length) {
    randomFillSync(POOL);
    poolAt = 0;
  }
  const t = POOL.toString('base64url', poolAt, poolAt + 16);
  poolAt += 16;
  return t;
}

/** The Set-Cookie value that makes `token` the browser's reader (HttpOnly, SameSite=Lax, Secure over https). */
export function readerCookie(token: string, secure: boolean): string {
  return `${READER_COOKIE}=${token}; Path=/; Max-Age=${COOKIE_MAX_AGE_S}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie value that removes the reader cookie. */
export function clearedReaderCookie(secure: boolean): string {
  return `${READER_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** A new reader for a caller that sent neither token nor cookie: its id and the cookie to set. */
export function newReader(secure: boolean): { reader: Reader; setCookie: string } {
  const token = mintToken();
  return { reader: { id: readerIdOf(token), from: 'cookie' }, setCookie: readerCookie(token, secure) };
}
