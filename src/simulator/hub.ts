import { createHmac, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { Agent, request } from 'undici';

/** One verified (or pending) WebSub subscription. */
export interface Subscription {
  readonly callback: string;
  readonly topic: string;
  readonly secret: string | null;
  readonly leaseSeconds: number;
  /** simulated-clock instant the lease ends */
  readonly expiresAt: number;
}

/** One content distribution attempt, for tests and the push-latency benchmark. */
export interface Delivery {
  readonly topic: string;
  readonly callback: string;
  readonly status: number | null;
  readonly ok: boolean;
  readonly forged: boolean;
  /** wall-clock ms when the POST started / finished */
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly error?: string;
}

export interface HubOptions {
  /** the hub's own URL, sent in `Link` headers */
  url: string;
  /** simulated clock, for leases */
  now: () => number;
  /** the current content of a topic, or null if the hub does not know the topic */
  content: (topic: string) => { body: Buffer; contentType: string } | null;
  /** longest lease granted, seconds (default 10 days) */
  maxLeaseSeconds?: number;
  timeoutMs?: number;
}

const MAX_SECRET_BYTES = 199;

/**
 * A WebSub hub (W3C WebSub 2018): accepts subscription requests, verifies intent by GET to the
 * callback with `hub.challenge` (which must be echoed), and on new content POSTs the full feed
 * to each verified subscriber, signed `X-Hub-Signature: sha256=<hmac>` when a secret was given.
 * Emits `verified` (Subscription), `denied` ({callback, topic, reason}) and `delivery` (Delivery).
 */
export class WebSubHub extends EventEmitter {
  private readonly subs = new Map<string, Subscription>();
  private readonly agent = new Agent({ connections: 64, keepAliveTimeout: 4000 });
  private readonly inflight = new Set<Promise<unknown>>();
  private forgeCount = 0;
  readonly deliveries: Delivery[] = [];
  verifications = 0;

  constructor(private readonly opts: HubOptions) {
    super();
  }

  get url(): string {
    return this.opts.url;
  }

  /** Handles a form-encoded hub request; answers 202 and verifies asynchronously. */
  handle(form: URLSearchParams): { status: number; body: string } {
    const mode = form.get('hub.mode');
    const callback = form.get('hub.callback');
    const topic = form.get('hub.topic');
    const secret = form.get('hub.secret');
    if (mode !== 'subscribe' && mode !== 'unsubscribe') return { status: 400, body: 'hub.mode must be subscribe or unsubscribe' };
    if (!callback || !/^https?:\/\//i.test(callback)) return { status: 400, body: 'hub.callback must be an http(s) URL' };
    try {
      new URL(callback);
    } catch {
      return { status: 400, body: 'hub.callback is not a URL' };
    }
    if (!topic) return { status: 400, body: 'hub.topic is required' };
    if (!this.opts.content(topic)) return { status: 404, body: 'unknown hub.topic' };
    if (secret !== null && Buffer.byteLength(secret) > MAX_SECRET_BYTES) return { status: 400, body: 'hub.secret too long' };
    const maxLease = this.opts.maxLeaseSeconds ?? 10 * 86400;
    const asked = Number(form.get('hub.lease_seconds') ?? '');
    const lease = Number.isFinite(asked) && asked > 0 ? Math.min(Math.floor(asked), maxLease) : 86400;
    this.track(this.verify(mode, callback, topic, secret || null, lease));
    return { status: 202, body: 'Accepted' };
  }

  private async verify(mode: 'subscribe' | 'unsubscribe', callback: string, topic: string, secret: string | null, lease: number): Promise<void> {
    const challenge = randomBytes(12).toString('hex');
    const url = new URL(callback);
    url.searchParams.set('hub.mode', mode);
    url.searchParams.set('hub.topic', topic);
    url.searchParams.set('hub.challenge', challenge);
    if (mode === 'subscribe') url.searchParams.set('hub.lease_seconds', String(lease));
    this.verifications++;
    let reason = '';
    try {
      const res = await request(url, { method: 'GET', dispatcher: this.agent, headersTimeout: this.timeout(), bodyTimeout: this.timeout() });
      const text = await res.body.text();
      if (res.statusCode < 200 || res.statusCode >= 300) reason = `callback answered ${res.statusCode}`;
      else if (text.trim() !== challenge) reason = 'challenge not echoed';
    } catch (err) {
      reason = `callback unreachable: ${(err as Error).message}`;
    }
    const key = `${callback} ${topic}`;
    if (reason) {
      this.emit('denied', { callback, topic, reason });
      return;
    }
    if (mode === 'unsubscribe') {
      this.subs.delete(key);
      this.emit('unsubscribed', { callback, topic });
      return;
    }
    const sub: Subscription = { callback, topic, secret, leaseSeconds: lease, expiresAt: this.opts.now() + lease * 1000 };
    this.subs.set(key, sub);
    this.emit('verified', sub);
  }

  private timeout(): number {
    return this.opts.timeoutMs ?? 10_000;
  }

  /** Active subscriptions (lease not expired on the simulated clock). */
  subscriptions(topic?: string): Subscription[] {
    const now = this.opts.now();
    return [...this.subs.values()].filter((s) => s.expiresAt > now && (topic === undefined || s.topic === topic));
  }

  /** Test hook: the next `n` deliveries carry a signature made with the wrong key. */
  forgeNextSignatures(n = 1): void {
    this.forgeCount += n;
  }

  /** Pushes the current content of `topic` to every active subscriber. */
  async publish(topic: string, opts: { forgeSignature?: boolean } = {}): Promise<Delivery[]> {
    const subs = this.subscriptions(topic);
    const content = this.opts.content(topic);
    if (subs.length === 0 || !content) return [];
    const p = Promise.all(subs.map((s) => this.deliver(s, content, opts.forgeSignature ?? false)));
    this.track(p);
    return p;
  }

  private async deliver(sub: Subscription, content: { body: Buffer; contentType: string }, forceForge: boolean): Promise<Delivery> {
    let forged = forceForge;
    if (!forged && this.forgeCount > 0) {
      this.forgeCount--;
      forged = true;
    }
    const headers: Record<string, string> = {
      'content-type': content.contentType,
      link: `<${this.opts.url}>; rel="hub", <${sub.topic}>; rel="self"`,
    };
    if (sub.secret !== null || forged) {
      const key = forged ? `forged-${randomBytes(8).toString('hex')}` : (sub.secret as string);
      headers['x-hub-signature'] = `sha256=${createHmac('sha256', key).update(content.body).digest('hex')}`;
    }
    const startedAt = Date.now();
    let d: Delivery;
    try {
      const res = await request(sub.callback, {
        method: 'POST', headers, body: content.body, dispatcher: this.agent,
        headersTimeout: this.timeout(), bodyTimeout: this.timeout(),
      });
      await res.body.dump();
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      d = { topic: sub.topic, callback: sub.callback, status: res.statusCode, ok, forged, startedAt, finishedAt: Date.now() };
      // WebSub: 410 Gone from a subscriber ends the subscription
      if (res.statusCode === 410) this.subs.delete(`${sub.callback} ${sub.topic}`);
    } catch (err) {
      d = { topic: sub.topic, callback: sub.callback, status: null, ok: false, forged, startedAt, finishedAt: Date.now(), error: (err as Error).message };
    }
    this.deliveries.push(d);
    if (this.deliveries.length > 10_000) this.deliveries.splice(0, this.deliveries.length - 10_000);
    this.emit('delivery', d);
    return d;
  }

  private track(p: Promise<unknown>): void {
    const q = p.catch(() => undefined).finally(() => this.inflight.delete(q));
    this.inflight.add(q);
  }

  /** Resolves when no verification or delivery is in flight. */
  async idle(): Promise<void> {
    while (this.inflight.size > 0) await Promise.all([...this.inflight]);
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}
