import { randomBytes } from 'node:crypto';
import type { ActorContext, Behaviour } from '../../runtime/actor.js';
import { FeedUnparseableError, UnexpectedStatusError, failureOf } from './errors.js';
import { freshEntries, markSeen } from './entries.js';
import { nameAfterPoll } from './name.js';
import { accelerate, beginPoll, DEFAULT_POLICY, initialPolicyState, jittered, onPollFailure, onPollSuccess, onPushed, type PolicyConfig } from './policy.js';
import { fromStored, newPublisher, statusOf, toStored, type LivePublisher, type PublisherConfig, type PublisherStatus, type PublisherStore } from './state.js';
import type { EmitFn, FetchFn, HubPostFn, ParsedFeed, ParseFn } from './types.js';
import { handlePush, handleRenew, handleRequested, handleVerify, maybeSubscribe, scheduleRenewal, type WebSubDeps } from './websub-handlers.js';
import { pushActive } from './websub.js';
import type { WebSubIntents } from './websub-intents.js';

/**
 * PublisherActor: one per feed (`publisher/<id>`). It owns the feed's polling state, polls on
 * its own timer (one entry in the node's timer heap), emits entries it has not emitted before
 * into the ingest log, and takes WebSub pushes through the same path. Effects are injected.
 */

export type PublisherMsg =
  | { type: 'poll' }
  | ({ type: 'configure' } & PublisherConfig)
  | { type: 'accelerate'; intervalMs: number; until: number }
  | { type: 'status' }
  | { type: 'websub-verify'; mode: string; topic: string; challenge?: string | null; leaseSeconds?: number | null; reason?: string | null }
  | { type: 'websub-push'; body: Uint8Array | string; signature: string | null; contentType: string | null }
  | { type: 'websub-requested'; ok: boolean; error: string | null }
  | { type: 'websub-renew' };

/** Replies: `status` → PublisherStatus; `websub-verify` / `websub-push` → HTTP status and body for the route. */
export type PublisherReply =
  | PublisherStatus
  | { status: number; body: string }
  | { status: number; accepted: boolean; emitted: number; reason?: string }
  | { ok: true }
  | undefined;

export interface PublisherDeps {
  fetch: FetchFn;
  parse: ParseFn;
  emit: EmitFn;
  store: PublisherStore;
  now: () => number;
  random: () => number;
  /** WebSub: our public callback URL for a publisher id, and how to POST to hubs; omit to poll only */
  websub?: { callbackUrl(id: string): string; post: HubPostFn; leaseSeconds?: number; secret?: () => string; intents?: WebSubIntents };
  policy?: PolicyConfig;
  /** a publisher loaded with an overdue poll polls within this spread, so a restart is no stampede */
  restartSpreadMs?: number;
  /** when a never-polled publisher at `url` polls first (see first-poll.ts); default: the policy's initial spread */
  firstPollAt?: (url: string, now: number) => number;
}

const POLL: PublisherMsg = { type: 'poll' };

/** The publisher behaviour with its effects bound. */
export function publisherBehaviour(deps: PublisherDeps): Behaviour<LivePublisher, PublisherMsg> {
  const cfg = deps.policy ?? DEFAULT_POLICY;
  const ws: WebSubDeps | null = deps.websub
    ? {
        callbackUrl: deps.websub.callbackUrl,
        post: deps.websub.post,
        leaseSeconds: deps.websub.leaseSeconds,
        secret: deps.websub.secret ?? (() => randomBytes(24).toString('hex')),
        now: deps.now,
        random: deps.random,
        intents: deps.websub.intents,
      }
    : null;

  const save = async (p: LivePublisher): Promise<void> => {
    ws?.intents?.note(p);
    await deps.store.save(toStored(p));
  };

  const schedulePoll = (p: LivePublisher, ctx: ActorContext): void => {
    if (p.url) ctx.schedule(Math.max(0, p.nextPollAt - deps.now()), POLL, 'poll');
  };

  /** Emit what is new in a document; returns how many articles went out. Throws when emit fails (nothing is marked). */
  const ingest = async (p: LivePublisher, parsed: ParsedFeed, now: number): Promise<{ emitted: number; publishedTimes: number[] }> => {
    const fresh = freshEntries(parsed, p.seen, p, now, p.rateAt === null);
    p.seen = fresh.seen;
    if (fresh.articles.length > 0) await deps.emit(fresh.articles);
    markSeen(p.seen, fresh.marks);
    p.name = nameAfterPoll(p.name, p.url, parsed.feed.title);
    p.newEntries += fresh.articles.length;
    return { emitted: fresh.articles.length, publishedTimes: fresh.publishedTimes };
  };

  const poll = async (p: LivePublisher, ctx: ActorContext): Promise<void> => {
    if (!p.url) return;
    const start = deps.now();
    Object.assign(p, beginPoll(p, start));
    p.polls++;
    try {
      const res = await deps.fetch({ url: p.url, etag: p.etag, lastModified: p.lastModified });
      const now = deps.now();
      if (res.permanentRedirect) p.url = typeof res.permanentRedirect === 'string' ? res.permanentRedirect : res.url || p.url;
      const hints = { ttlMinutes: null as number | null, maxAgeMs: res.maxAgeMs, expiresAt: res.expiresAt };
      if (res.notModified || res.status === 304) {
        p.notModified++;
        Object.assign(p, onPollSuccess(p, { ...hints, newEntries: 0, notModified: true, pushActive: pushActive(p.websub, now) }, now, deps.random, cfg));
      } else if (res.status >= 200 && res.status < 300 && res.body != null) {
        let parsed: ParsedFeed;
        try {
          parsed = await deps.parse(res.body, { baseUrl: res.url || p.url, contentType: res.contentType });
        } catch (err) {
          throw new FeedUnparseableError(p.url, err);
        }
        let out: { emitted: number; publishedTimes: number[] };
        try {
          out = await ingest(p, parsed, now);
        } catch (err) {
          // the ingest log is down: not the publisher's fault, so no failure count; retry soon
          p.lastError = `EMIT_FAILED: ${failureOf(err).message}`;
          p.nextPollAt = now + jittered(cfg.minIntervalMs, deps.random, cfg);
          return;
        }
        p.etag = res.etag;
        p.lastModified = res.lastModified;
        hints.ttlMinutes = parsed.meta?.ttlMinutes ?? null;
        if (ws) maybeSubscribe(p, parsed.meta, ws, ctx, out.emitted);
        Object.assign(
          p,
          onPollSuccess(p, { ...hints, newEntries: out.emitted, notModified: false, publishedTimes: out.publishedTimes, pushActive: pushActive(p.websub, now) }, now, deps.random, cfg),
        );
      } else {
        throw new UnexpectedStatusError(p.url, res.status);
      }
    } catch (err) {
      p.errors++;
      Object.assign(p, onPollFailure(p, failureOf(err), deps.now(), deps.random, cfg));
    } finally {
      await save(p);
      schedulePoll(p, ctx);
    }
  };

  return {
    kind: 'publisher',
    async init(key, ctx) {
      const stored = await deps.store.load(key);
      if (!stored) return newPublisher(key, { url: '' }, deps.now(), deps.random);
      const p = fromStored(stored);
      const now = deps.now();
      // overdue after downtime: spread the catch-up polls instead of firing them all at once
      if (p.nextPollAt < now) p.nextPollAt = now + Math.floor(deps.random() * Math.min(p.intervalMs, deps.restartSpreadMs ?? 5 * 60_000));
      if (p.polls === 0 && p.url && deps.firstPollAt) p.nextPollAt = Math.min(p.nextPollAt, deps.firstPollAt(p.url, now));
      schedulePoll(p, ctx);
      ws?.intents?.note(p);
      if (ws && p.websub?.status === 'active') scheduleRenewal(p, ctx, now);
      return p;
    },

    async receive(p, msg, ctx): Promise<PublisherReply> {
      switch (msg.type) {
        case 'poll':
          await poll(p, ctx);
          return undefined;
        case 'configure': {
          const fresh = !p.url;
          if (fresh) {
            Object.assign(p, newPublisher(p.id, msg, deps.now(), deps.random, cfg));
            if (deps.firstPollAt && p.url) p.nextPollAt = Math.min(p.nextPollAt, deps.firstPollAt(p.url, deps.now()));
          } else {
            // a new URL is a new feed to the policy (the seen ring stays: a moved feed must not re-emit)
            if (msg.url && msg.url !== p.url) Object.assign(p, initialPolicyState(deps.now(), deps.random, undefined, cfg), { url: msg.url, etag: null, lastModified: null });
            if (msg.name !== undefined) p.name = msg.name;
            if (msg.category !== undefined) p.category = msg.category;
            if (msg.country !== undefined) p.country = msg.country;
            if (msg.language !== undefined) p.language = msg.language;
          }
          await save(p);
          schedulePoll(p, ctx);
          return { ok: true };
        }
        case 'accelerate': {
          Object.assign(p, accelerate(p, msg.intervalMs, msg.until, deps.now(), deps.random, cfg));
          await save(p);
          schedulePoll(p, ctx);
          return { ok: true };
        }
        case 'status':
          return statusOf(p);
        case 'websub-verify': {
          const answer = handleVerify(p, msg, ws, ctx);
          await save(p);
          return answer;
        }
        case 'websub-requested':
          if (ws) handleRequested(p, msg, ws);
          await save(p);
          return undefined;
        case 'websub-renew':
          if (ws) handleRenew(p, ws, ctx);
          await save(p);
          return undefined;
        case 'websub-push': {
          const reply = await handlePush(p, msg, deps.parse, async (parsed, now) => (await ingest(p, parsed, now)).emitted, deps.now());
          if (reply.accepted) Object.assign(p, onPushed(p, reply.emitted, deps.now(), cfg));
          await save(p);
          return reply;
        }
      }
    },
  };
}
