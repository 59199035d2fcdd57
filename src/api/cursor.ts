import { createHash, hash, timingSafeEqual } from 'node:crypto';
import { NewsaggError } from '../runtime/errors.js';

/** SHA-256's block size: the HMAC key pads to it */
const HMAC_BLOCK = 64;

/** What a client is told for each way a cursor fails (the code is always `invalid_cursor`). */
const CURSOR_MESSAGES: Record<string, string> = {
  malformed: 'The cursor is malformed: pass next_cursor exactly as the previous page gave it, or start again without one.',
  'signature mismatch':
    'The cursor was not issued for this query (another feed, search or reader, or a node with another --cursor-secret: without one each process picks its own); start again without one.',
  expired: 'The cursor has expired (the page order it continues is no longer kept); start again without one.',
};

/** A cursor that is malformed, tampered with, expired, or from another feed; the message says which. */
export class InvalidCursorError extends NewsaggError {
  /** why, for logs and for callers that can say more (see explainCursorScope) */
  readonly reason: string;

  constructor(reason: string, userMessage?: string) {
    super('invalid_cursor', `invalid cursor: ${reason}`, { userMessage: userMessage ?? CURSOR_MESSAGES[reason] ?? CURSOR_MESSAGES.malformed! });
    this.reason = reason;
  }
}

/**
 * A cursor refused for its signature that one of `candidates` does sign (the same feed with
 * another region or category, say): the error names that query, so a client learns what it
 * mixed up instead of "invalid". Anything else is returned as it was. Costs one HMAC per
 * candidate, on the error path only.
 */
export function explainCursorScope(err: unknown, codec: CursorCodec, cursor: string, candidates: readonly { scope: string; what: string }[]): unknown {
  if (!(err instanceof InvalidCursorError) || err.reason !== 'signature mismatch') return err;
  const found = candidates.find((c) => codec.signs(c.scope, cursor));
  if (!found) return err;
  return new InvalidCursorError('another query', `This cursor belongs to ${found.what}: ask with those parameters, or start again without a cursor.`);
}

/**
 * Opaque, tamper-evident pagination cursors: base64url(JSON payload) + '.' + a truncated
 * HMAC-SHA256 over it and a scope (which feed/search it belongs to), so a client can neither
 * forge positions nor replay a cursor of one feed on another.
 */
export class CursorCodec {
  /** the HMAC's inner block (key ^ ipad) followed by room for the message, reused by every signature */
  private inner: Buffer;
  /** the HMAC's outer block (key ^ opad) followed by the inner digest */
  private readonly outer = Buffer.alloc(HMAC_BLOCK + 32);

  constructor(secret: string) {
    if (!secret) throw new TypeError('cursor secret must not be empty');
    // HMAC-SHA256 (RFC 2104) from two one-shot hashes: no Hmac object per cursor
    let key: Buffer = Buffer.from(secret, 'utf8');
    if (key.length > HMAC_BLOCK) key = createHash('sha256').update(key).digest();
    this.inner = Buffer.alloc(HMAC_BLOCK + 1024);
    for (let i = 0; i < HMAC_BLOCK; i++) {
      this.inner[i] = (key[i] ?? 0) ^ 0x36;
      this.outer[i] = (key[i] ?? 0) ^ 0x5c;
    }
  }

  encode(scope: string, payload: Record<string, unknown>): string {
    const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
    return `${body}.${this.sign(scope, body)}`;
  }

  decode<T extends Record<string, unknown>>(scope: string, cursor: string): T {
    if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > 2048) throw new InvalidCursorError('malformed');
    const dot = cursor.indexOf('.');
    if (dot <= 0 || dot !== cursor.lastIndexOf('.')) throw new InvalidCursorError('malformed');
    const body = cursor.slice(0, dot);
    const mac = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const want = Buffer.from(this.sign(scope, body), 'base64url');
    if (mac.length !== want.length || !timingSafeEqual(mac, want)) throw new InvalidCursorError('signature mismatch');
    let value: unknown;
    try {
      value = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    } catch {
      throw new InvalidCursorError('malformed');
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new InvalidCursorError('malformed');
    return value as T;
  }

  /**
   * A cursor whose payload is already URL-safe text, signed as it is: no JSON, no second base64
   * (the personalised feed carries a few hundred bytes of order in its cursors). The caller
   * guarantees `text` is base64url characters only (what parseCursor lets through).
   */
  encodeText(scope: string, text: string): string {
    return `${text}.${this.sign(scope, text)}`;
  }

  /** The payload of an `encodeText` cursor; throws InvalidCursorError like `decode`. */
  decodeText(scope: string, cursor: string): string {
    if (typeof cursor !== 'string' || cursor.length === 0 || cursor.length > 2048) throw new InvalidCursorError('malformed');
    const dot = cursor.indexOf('.');
    if (dot <= 0 || dot !== cursor.lastIndexOf('.')) throw new InvalidCursorError('malformed');
    const text = cursor.slice(0, dot);
    const mac = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const want = Buffer.from(this.sign(scope, text), 'base64url');
    if (mac.length !== want.length || !timingSafeEqual(mac, want)) throw new InvalidCursorError('signature mismatch');
    return text;
  }

  /** Whether `cursor` carries a valid signature for `scope` (its payload unread). */
  signs(scope: string, cursor: string): boolean {
    const dot = cursor.indexOf('.');
    if (dot <= 0 || dot !== cursor.lastIndexOf('.')) return false;
    const mac = Buffer.from(cursor.slice(dot + 1), 'base64url');
    const want = Buffer.from(this.sign(scope, cursor.slice(0, dot)), 'base64url');
    return mac.length === want.length && timingSafeEqual(mac, want);
  }

  /** The first 16 bytes of HMAC-SHA256(secret, scope + NUL + body), base64url. */
  private sign(scope: string, body: string): string {
    const size = HMAC_BLOCK + Buffer.byteLength(scope, 'utf8') + 1 + Buffer.byteLength(body, 'utf8');
    if (size > this.inner.length) {
      const bigger = Buffer.alloc(size * 2);
      this.inner.copy(bigger, 0, 0, HMAC_BLOCK);
      this.inner = bigger;
    }
    const m = this.inner;
    let at = HMAC_BLOCK + m.write(scope, HMAC_BLOCK, 'utf8');
    m[at++] = 0;
    at += m.write(body, at, 'utf8');
    hash('sha256', m.subarray(0, at), 'buffer').copy(this.outer, HMAC_BLOCK);
    return hash('sha256', this.outer, 'buffer').toString('base64url', 0, 16);
  }
}
