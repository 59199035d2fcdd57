import { randomBytes } from 'node:crypto';
import type { ActorContext, Behaviour } from '../../runtime/actor.js';
import { FeedUnparseableError, UnexpectedStatusError, failureOf } from './errors.js';
import { freshEntries, markSeen, type SkipReason } from './entries.js';
import { nameAfterPoll } from './name.js';
import { accelerate, beginPoll, DEFAULT_POLICY, initialPolicyState, jittered, onPollFailure, onPollSuccess, onPushed, type PolicyConfig } from './policy.js';
import { fromStored, newPublisher, statusOf, toStored, type InFlightEmit, type LivePublisher, type PublisherConfig, type PublisherStatus, type PublisherStore } from './state.js';
import type { PollsInFlight } from './polls-in-flight.js';
import { DEFAULT_STEP, intoSteps, type PollStep } from './steps.js';
import type { EmitFn, FetchFn, HubPostFn, ParsedFeed, ParseFn } from './types.js';
import { handlePush, handleRenew, handleRequested, handleVerify, maybeSubscribe, scheduleRenewal, type WebSubDeps } from './websub-handlers.js';
import { pushActive } from './websub.js';
import type { WebSubIntents } from './websub-intents.js';

/**
 * PublisherActor: one per feed (`publisher/<id>`). It owns the feed's polling state, polls on
 * its own timer (one entry in the node's timer heap), emits entries it has not emitted before
 * into the ingest log, and takes WebSub pushes through the same path. Effects are injected.
 *
 * Acknowledged ingest: the ingest log's `emit` resolves once the articles are stored. The actor
 * does not wait for it (it keeps answering WebSub verifications and status asks); the outcome
 * comes back as a message to itself, `acked` or `emit-failed`. Only on `acked` do the feed's
 * validators (ETag, Last-Modified) and seen ring move past those entries, so after a crash the
 * next poll fetches them again (idempotent writes absorb what was stored already). Entries in
 * flight are not emitted twice meanwhile, and a publisher's next poll waits for its previous
 * poll's articles. The persisted `unackedSince` makes a restarted node poll such a publisher
 * again within `unackedRepollMs`. A document with more new entries than a step holds is emitted
 * in steps, each once the one before is stored (steps.ts); its validators move with the last.
 *
 * One poller per feed: a poll registers in `polls`, so a node handing the publisher to another
 * aborts its fetch and waits for its state; a publisher loaded anywhere never polls sooner than
 * the policy's minimum interval after its last poll, wherever that ran.
 */

export type PublisherMsg =
  | { type: 'poll' }
  | ({ type: 'configure' } & PublisherConfig)
  | { type: 'accelerate'; intervalMs: number; until: number }
  | { type: 'status' }
  | { type: 'websub-verify'; mode: string; topic: string; challenge?: string | null; leaseSeconds?: number | null; reason?: string | null }
  | { type: 'websub-push'; body: Uint8Array | string; signature: string | null; contentType: string | null }
  | { type: 'websub-requested'; ok: boolean; error: string | null }
  | { type: 'websub-renew' }
  /** the articles of emit `seq` are stored: record them as seen (and the poll's validators) */
  | { type: 'acked'; seq: number }
  /** emit `seq` could not be stored: its entries count as new again */
  | { type: 'emit-failed'; seq: number; error: string };

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
  /** a publisher loaded with articles never acknowledged polls within this (default 30 s) */
  unackedRepollMs?: number;
  /** articles put into the ingest log at once (one step; default 100): a larger document goes in several */
  maxEntriesPerPoll?: number;
  /** entries published longer ago than this are skipped (they would be deleted at once); default: none */
  retentionMs?: number;
  /** new entries left out on purpose, by reason (a metric) */
  skipped?: (reason: SkipReason, n: number) => void;
  /** where polls in progress are registered, so a node giving the publisher away can abort them */
  polls?: PollsInFlight;
}

/** While a poll's articles are being stored, the next poll is put off by this much. */
const POLL_WAIT_MS = 5_000;

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

  let emitSeq = 0;

  /** Key hashes and fingerprints of the entries in flight or queued (not emitted again meanwhile). */
  const pendingMarks = (p: LivePublisher): Set<number> | null => {
    if (!p.inflight && !p.queue) return null;
    const out = new Set<number>();
    for (const e of [...(p.inflight ?? []), ...(p.queue ?? [])]) for (const m of e.marks) if (m !== 0) out.add(m);
    return out;
  };

  /** Puts one step into the ingest log; the outcome comes back as `acked` / `emit-failed`. */
  const emitStep = (p: LivePublisher, step: PollStep, ctx: ActorContext): void => {
    const seq = ++emitSeq;
    (p.inflight ??= []).push({ seq, marks: step.marks, validators: step.validators, poll: step.poll, count: step.articles.length });
    p.unackedSince ??= deps.now();
    const self = ctx.self;
    deps.emit(step.articles).then(
      () => ctx.send<PublisherMsg>(self, { type: 'acked', seq }),
      (err: unknown) => ctx.send<PublisherMsg>(self, { type: 'emit-failed', seq, error: failureOf(err).message ?? String(err) }),
    );
  };

  /**
   * Emit what is new in a document, without waiting for it to be stored: the outcome comes back
   * as `acked` / `emit-failed`. Returns how many articles go out (in steps). Entries that yield no
   * article (nothing usable, older than retention) are settled at once, and so are a poll's
   * validators when nothing goes out.
   */
  const ingest = (p: LivePublisher, parsed: ParsedFeed, now: number, ctx: ActorContext, validators: InFlightEmit['validators'], poll: boolean): { emitted: number; publishedTimes: number[] } => {
    const fresh = freshEntries(parsed, p.seen, p, now, {
      wantTimes: p.rateAt === null,
      notBefore: deps.retentionMs ? now - deps.retentionMs : null,
      pending: pendingMarks(p),
    });
    p.seen = fresh.seen;
    p.name = nameAfterPoll(p.name, p.url, parsed.feed.title);
    markSeen(p.seen, fresh.settled);
    for (const reason of ['retention', 'document_limit'] as const) {
      const n = fresh.skipped[reason];
      if (n === 0) continue;
      p.skipped += n;
      deps.skipped?.(reason, n);
    }
    if (fresh.articles.length === 0) {
      if (validators) {
        p.etag = validators.etag;
        p.lastModified = validators.lastModified;
      }
      return { emitted: 0, publishedTimes: fresh.publishedTimes };
    }
    const steps = intoSteps(fresh.articles, fresh.marks, deps.maxEntriesPerPoll ?? DEFAULT_STEP, { validators, poll });
    // a document found while another's steps are still going waits its turn behind them
    if (p.queue) p.queue.push(...steps);
    else {
      emitStep(p, steps.shift()!, ctx);
      if (steps.length > 0) p.queue = steps;
    }
    return { emitted: fresh.articles.length, publishedTimes: fresh.publishedTimes };
  };

  /** The next queued step goes out once nothing of this publisher is in flight. */
  const next = (p: LivePublisher, ctx: ActorContext): void => {
    if (!p.queue || p.inflight) return;
    const step = p.queue.shift()!;
    if (p.queue.length === 0) p.queue = null;
    emitStep(p, step, ctx);
  };

  /** Takes emit `seq` out of the in-flight list (null when unknown, e.g. after a restart). */
  const settle = (p: LivePublisher, seq: number): InFlightEmit | null => {
    const at = p.inflight?.findIndex((e) => e.seq === seq) ?? -1;
    if (at < 0) return null;
    const [e] = p.inflight!.splice(at, 1);
    if (p.inflight!.length === 0) {
      p.inflight = null;
      p.unackedSince = null;
    }
    return e!;
  };

  const poll = async (p: LivePublisher, ctx: ActorContext): Promise<void> => {
    if (!p.url) return;
    // the last poll's articles are still being stored: its validators are not ours to send yet
    if (p.inflight?.some((e) => e.poll) || p.queue?.some((e) => e.poll)) {
      ctx.schedule(POLL_WAIT_MS, POLL, 'poll');
      return;
    }
    const start = deps.now();
    Object.assign(p, beginPoll(p, start));
    p.polls++;
    // registered while it runs: a node giving this publisher away aborts the fetch and waits for the save below
    const run = deps.polls?.begin(p.id) ?? null;
    let handedOver = false;
    try {
      const res = await deps.fetch({ url: p.url, etag: p.etag, lastModified: p.lastModified, ...(run ? { signal: run.signal } : {}) });
      const now = deps.now();
      if (res.permanentRedirect) p.url = typeof res.permanentRedirect === 'string' ? res.permanentRedirect : res.url || p.url;
      const hints = { ttlMinutes: null as number | null, maxAgeMs: res.maxAgeMs, expiresAt: res.expiresAt };
      if (res.notModified || res.status === 304) {
        p.notModified++;
        Object.assign(p, onPollSuccess(p, { ...hints, newEntries: 0, notModified: true, pushActive: pushActive(p.websub, now) }, now, deps.random, cfg));
      } else if (res.status >= 200 && res.status < 300 && res.body != null) {
        let parsed: ParsedFeed;
        try {
          // the HTTP charset is evidence for the body's encoding (the parser weighs it against the document's own)
          const contentType = res.contentType && res.charset ? `${res.contentType}; charset=${res.charset}` : res.contentType;
          parsed = await deps.parse(res.body, { baseUrl: res.url || p.url, contentType });
        } catch (err) {
          throw new FeedUnparseableError(p.url, err);
        }
        const out = ingest(p, parsed, now, ctx, { etag: res.etag, lastModified: res.lastModified }, true);
        if (!p.inflight) p.unackedSince = null;
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
      if (run?.signal.aborted) {
        // handed to another node mid-fetch: not the feed's failure; the next owner reads when this
        // poll started and polls no sooner than the minimum interval after it
        handedOver = true;
        p.nextPollAt = start + cfg.minIntervalMs;
      } else {
        p.errors++;
        Object.assign(p, onPollFailure(p, failureOf(err), deps.now(), deps.random, cfg));
      }
    } finally {
      try {
        await save(p);
        if (!handedOver) schedulePoll(p, ctx);
      } finally {
        run?.end();
      }
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
      // articles it emitted were never acknowledged (the node stopped first): fetch them again soon
      if (p.unackedSince !== null) p.nextPollAt = Math.min(p.nextPollAt, now + Math.floor(deps.random() * (deps.unackedRepollMs ?? 30_000)));
      // one poller per feed across nodes: taken over from another node, it keeps that node's last
      // poll the minimum interval behind, whatever the reason to poll soon
      if (p.lastPollAt !== null) p.nextPollAt = Math.max(p.nextPollAt, p.lastPollAt + cfg.minIntervalMs);
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
        case 'acked': {
          const e = settle(p, msg.seq);
          if (!e) return undefined;
          markSeen(p.seen, e.marks);
          if (e.validators) {
            p.etag = e.validators.etag;
            p.lastModified = e.validators.lastModified;
          }
          p.newEntries += e.count;
          // the document's next step, now that this one is stored
          next(p, ctx);
          await save(p);
          return undefined;
        }
        case 'emit-failed': {
          const e = settle(p, msg.seq);
          if (!e) return undefined;
          // the ingest log could not store them: not the publisher's fault, so no failure count;
          // nothing was marked and the validators stayed, so the next poll (soon) finds this step's
          // entries and the steps still queued new again
          const dropped = p.queue ?? [];
          p.queue = null;
          p.lastError = `EMIT_FAILED: ${msg.error}`;
          if (e.poll || dropped.some((d) => d.poll)) {
            p.nextPollAt = deps.now() + jittered(cfg.minIntervalMs, deps.random, cfg);
            schedulePoll(p, ctx);
          }
          await save(p);
          return undefined;
        }
        case 'websub-push': {
          const reply = await handlePush(p, msg, deps.parse, async (parsed, now) => ingest(p, parsed, now, ctx, null, false).emitted, deps.now());
          if (reply.accepted) Object.assign(p, onPushed(p, reply.emitted, deps.now(), cfg));
          await save(p);
          return reply;
        }
      }
    },
  };
}
