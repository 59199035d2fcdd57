import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local push service, as a browser vendor runs one (RFC 8030), for tests: it receives the
 * node's POSTs, checks the VAPID JWT (RFC 8292: ES256 over the audience, expiry and subject,
 * signed by the key the request names) and decrypts the aes128gcm payload (RFC 8291 / RFC 8188)
 * with the subscription's private key, which the test generated like a browser would. Written
 * from the RFCs with node:crypto alone, not with the library the node sends through.
 */

export interface Delivery {
  /** the subscription's name */
  name: string;
  status: number;
  headers: Record<string, string>;
  /** the decrypted payload parsed as JSON, when decryption worked */
  payload: Record<string, unknown> | null;
  /** why the request was refused, if it was (bad signature, undecryptable body) */
  error: string | null;
  vapid: { aud: string; exp: number; sub: string; k: string } | null;
  at: number;
}

export interface BrowserSubscription {
  name: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

interface Sub {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  /** the answer to the n-th request (0-based) */
  answer: (n: number) => { status: number; headers?: Record<string, string> };
  requests: number;
}

const b64u = (b: Buffer) => b.toString('base64url');

/** RFC 8291 §3.4 + RFC 8188 §2: the plaintext of an aes128gcm body for the subscription's keys. */
export function decryptAes128gcm(body: Buffer, uaPrivate: ReturnType<typeof createECDH>, authSecret: Buffer): Buffer {
  if (body.length < 21) throw new Error('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  if (idlen !== 65) throw new Error(`keyid is ${idlen} bytes, not the 65-byte sender key`);
  const ciphertext = body.subarray(21 + idlen);
  if (ciphertext.length > rs) throw new Error('more than one record');
  const uaPublic = uaPrivate.getPublicKey();
  const ecdhSecret = uaPrivate.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // the last record ends with the delimiter 0x02, then zero padding
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (end < 0 || padded[end] !== 2) throw new Error('no last-record delimiter');
  return padded.subarray(0, end);
}

/** RFC 8292 §2-3: the claims of `Authorization: vapid t=<jwt>, k=<key>` when the ES256 signature verifies under k. */
export function verifyVapid(header: string | undefined): { aud: string; exp: number; sub: string; k: string } {
  const m = /^vapid\s+t=([A-Za-z0-9_.-]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) throw new Error(`not a vapid Authorization header: ${header}`);
  const [jwt, k] = [m[1]!, m[2]!];
  const [h, p, s] = jwt.split('.');
  if (!h || !p || !s) throw new Error('malformed JWT');
  const head = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg?: string; typ?: string };
  if (head.alg !== 'ES256') throw new Error(`JWT alg ${head.alg}`);
  const point = Buffer.from(k, 'base64url');
  if (point.length !== 65 || point[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64u(point.subarray(1, 33)), y: b64u(point.subarray(33)) }, format: 'jwk' });
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (!ok) throw new Error('JWT signature does not verify');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString()) as { aud: string; exp: number; sub: string };
  return { ...claims, k };
}

export class LocalPushService {
  readonly deliveries: Delivery[] = [];
  private readonly subs = new Map<string, Sub>();

  private received = 0;

  private constructor(private readonly server: Server, readonly url: string, private readonly checkEvery: number) {}

  /** `checkEvery` k: only every k-th request is verified and decrypted (benchmarks); default every one. */
  static async start(opts: { checkEvery?: number } = {}): Promise<LocalPushService> {
    let self: LocalPushService | null = null;
    const server = createServer((req, res) => {
      void self!.handle(req).then(({ status, headers }) => {
        res.writeHead(status, headers);
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    self = new LocalPushService(server, `http://127.0.0.1:${port}`, opts.checkEvery ?? 1);
    return self;
  }

  /** A new browser subscription on this service: fresh P-256 keys and auth secret, as PushManager.subscribe() makes. */
  subscribe(name: string, answer: Sub['answer'] = () => ({ status: 201 })): BrowserSubscription {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    this.subs.set(name, { ecdh, auth, answer, requests: 0 });
    return { name, endpoint: `${this.url}/push/${encodeURIComponent(name)}`, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } };
  }

  /** Changes how the service answers a subscription from now on. */
  answer(name: string, answer: Sub['answer']): void {
    this.subs.get(name)!.answer = answer;
  }

  /** The deliveries to one subscription that the service accepted (2xx), decrypted. */
  accepted(name: string): Delivery[] {
    return this.deliveries.filter((d) => d.name === name && d.status >= 200 && d.status < 300);
  }

  all(name: string): Delivery[] {
    return this.deliveries.filter((d) => d.name === name);
  }

  private async handle(req: IncomingMessage): Promise<{ status: number; headers?: Record<string, string> }> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
    const m = /^\/push\/([^/]+)$/.exec(req.url ?? '');
    const name = m ? decodeURIComponent(m[1]!) : '';
    const sub = this.subs.get(name);
    const d: Delivery = { name, status: 404, headers, payload: null, error: null, vapid: null, at: Date.now() };
    this.deliveries.push(d);
    if (req.method !== 'POST' || !sub) return { status: (d.status = 404) };
    if (this.received++ % this.checkEvery === 0) {
      try {
        d.vapid = verifyVapid(headers.authorization);
        if (d.vapid.aud !== this.url) throw new Error(`JWT aud ${d.vapid.aud}, expected ${this.url}`);
        if (headers['content-encoding'] !== 'aes128gcm') throw new Error(`Content-Encoding ${headers['content-encoding']}`);
        d.payload = JSON.parse(decryptAes128gcm(body, sub.ecdh, sub.auth).toString('utf8')) as Record<string, unknown>;
      } catch (err) {
        d.error = (err as Error).message;
        return { status: (d.status = 400) };
      }
    }
    const a = sub.answer(sub.requests++);
    d.status = a.status;
    return a;
  }

  async close(): Promise<void> {
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
