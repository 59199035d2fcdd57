/**
 * The polling policy: when a publisher is polled next, as pure functions of its state, what the
 * last poll observed, the injected time `now` and an injected `random()` (jitter). Nothing here
 * performs I/O or reads a clock, so every rule is a table-driven test.
 *
 * Rules, in one place:
 * - four tiers (5 / 15 / 30 / 120 min); the tier follows the publishing rate, an exponentially
 *   decayed count of new entries per hour, with hysteresis so a publisher does not flap;
 * - RSS `<ttl>`, `Cache-Control: max-age` and `Expires` are lower bounds on the next interval;
 * - jitter only ever lengthens an interval, so lower bounds and backoff are never undercut;
 * - failures back off exponentially from the normal interval (a failing publisher is slowed,
 *   never polled faster), `Retry-After` is a lower bound, and after `circuitThreshold`
 *   consecutive failures the circuit opens: one half-open probe after an open period that
 *   doubles up to a day. Nothing ever stops polling for good, and `lastError` says why.
 */

export type Tier = 0 | 1 | 2 | 3;
export type CircuitState = 'closed' | 'open' | 'half-open';

export interface PolicyConfig {
  tierIntervalsMs: readonly [number, number, number, number];
  /** minimum publishing rate (entries per hour) for tiers 0, 1, 2; tier 3 takes the rest */
  promoteAtPerHour: readonly [number, number, number];
  /** demote only when the rate falls below this fraction of the current tier's threshold */
  demoteFactor: number;
  /** time constant of the decayed publishing-rate estimate */
  rateTauMs: number;
  /** jitter: an interval is stretched by up to this fraction */
  jitter: number;
  minIntervalMs: number;
  /** cache hints (ttl, max-age, Expires) beyond this are capped: a bad header must not silence a feed */
  maxHintMs: number;
  backoffMaxMs: number;
  circuitThreshold: number;
  circuitOpenMs: number;
  circuitOpenMaxMs: number;
  /** Retry-After beyond this is capped */
  maxRetryAfterMs: number;
  /** with an active WebSub lease, polling is only a safety net at this interval */
  pushSafetyIntervalMs: number;
}

const MIN = 60_000;
const HOUR = 60 * MIN;

export const DEFAULT_POLICY: PolicyConfig = {
  tierIntervalsMs: [5 * MIN, 15 * MIN, 30 * MIN, 120 * MIN],
  promoteAtPerHour: [4, 1, 1 / 6],
  demoteFactor: 0.5,
  rateTauMs: 12 * HOUR,
  jitter: 0.1,
  minIntervalMs: MIN,
  maxHintMs: 12 * HOUR,
  backoffMaxMs: 6 * HOUR,
  circuitThreshold: 5,
  circuitOpenMs: HOUR,
  circuitOpenMaxMs: 24 * HOUR,
  maxRetryAfterMs: 24 * HOUR,
  pushSafetyIntervalMs: 3 * HOUR,
};

/** The part of a publisher's persisted state the policy reads and writes. */
export interface PolicyState {
  tier: Tier;
  /** the interval chosen at the last decision (before jitter) */
  intervalMs: number;
  nextPollAt: number;
  /** consecutive failures */
  failures: number;
  circuit: CircuitState;
  /** consecutive circuit openings (drives the open period) */
  circuitOpens: number;
  /** decayed publishing rate, entries per hour; negative = not yet known */
  ratePerHour: number;
  /** when `ratePerHour` was last brought up to date (null = never) */
  rateAt: number | null;
  lastPollAt: number | null;
  lastSuccessAt: number | null;
  /** `CODE: message` of the last failure, cleared by a success */
  lastError: string | null;
  /** accelerated polling (breaking news): interval and deadline, 0 when inactive */
  accelIntervalMs: number;
  accelUntil: number;
}

export interface SuccessObservation {
  newEntries: number;
  notModified: boolean;
  ttlMinutes?: number | null;
  maxAgeMs?: number | null;
  expiresAt?: number | null;
  /** publish times (epoch ms) of the entries in the document, to seed the rate on a first poll */
  publishedTimes?: readonly number[];
  /** an active WebSub lease: polling becomes a safety net */
  pushActive?: boolean;
}

export interface FailureObservation {
  code: string;
  message?: string;
  retryAfterMs?: number | null;
}

export type Random = () => number;

/**
 * A fresh publisher: tier 1 until its rate is known; the first poll comes within `spreadMs`
 * (default: the tier-1 interval), so importing 50,000 feeds at once is no stampede.
 */
export function initialPolicyState(now: number, random: Random, spreadMs?: number, cfg = DEFAULT_POLICY): PolicyState {
  const spread = spreadMs ?? cfg.tierIntervalsMs[1];
  return {
    tier: 1,
    intervalMs: cfg.tierIntervalsMs[1],
    nextPollAt: now + Math.floor(random() * spread),
    failures: 0,
    circuit: 'closed',
    circuitOpens: 0,
    ratePerHour: -1,
    rateAt: null,
    lastPollAt: null,
    lastSuccessAt: null,
    lastError: null,
    accelIntervalMs: 0,
    accelUntil: 0,
  };
}

/** Decayed event-rate update: rate' = rate·e^(−Δt/τ) + n/τ (entries per hour). */
export function updateRate(ratePerHour: number, newEntries: number, elapsedMs: number, cfg = DEFAULT_POLICY): number {
  const tauH = cfg.rateTauMs / HOUR;
  const base = ratePerHour < 0 ? 0 : ratePerHour * Math.exp(-Math.max(0, elapsedMs) / cfg.rateTauMs);
  return base + newEntries / tauH;
}

/**
 * The rate implied by a document's publish dates, for a publisher seen for the first time: the
 * backlog in a first fetch says nothing about arrivals, but its dates do.
 */
export function seedRate(publishedTimes: readonly number[], now: number, cfg = DEFAULT_POLICY): number {
  let rate = 0;
  const tauH = cfg.rateTauMs / HOUR;
  for (const t of publishedTimes) {
    if (!Number.isFinite(t) || t > now + HOUR) continue;
    rate += Math.exp(-Math.max(0, now - t) / cfg.rateTauMs) / tauH;
  }
  return rate;
}

/** The tier for a rate, with hysteresis: promote at a threshold, demote only well below it. */
export function targetTier(ratePerHour: number, current: Tier, cfg = DEFAULT_POLICY): Tier {
  if (ratePerHour < 0) return current;
  const thr: readonly number[] = cfg.promoteAtPerHour;
  let promoted: Tier = 3;
  for (let t = 0; t < 3; t++) if (ratePerHour >= thr[t]!) { promoted = t as Tier; break; }
  if (promoted <= current) return promoted;
  // demotion: the fastest tier (not faster than now) whose relaxed threshold the rate still meets
  for (let t = current; t < 3; t++) if (ratePerHour >= thr[t]! * cfg.demoteFactor) return t as Tier;
  return 3;
}

/** Stretch an interval by up to `cfg.jitter` so publishers that started together drift apart. */
export function jittered(ms: number, random: Random, cfg = DEFAULT_POLICY): number {
  return Math.round(ms * (1 + cfg.jitter * random()));
}

/** The lower bound the feed's own cache hints put on the next poll (0 when none). */
export function hintLowerBoundMs(obs: Pick<SuccessObservation, 'ttlMinutes' | 'maxAgeMs' | 'expiresAt'>, now: number, cfg = DEFAULT_POLICY): number {
  let hint = 0;
  if (obs.ttlMinutes != null && obs.ttlMinutes > 0) hint = Math.max(hint, obs.ttlMinutes * MIN);
  if (obs.maxAgeMs != null && obs.maxAgeMs > 0) hint = Math.max(hint, obs.maxAgeMs);
  if (obs.expiresAt != null && obs.expiresAt > now) hint = Math.max(hint, obs.expiresAt - now);
  return Math.min(hint, cfg.maxHintMs);
}

/** The normal (success) interval before hints and jitter: tier, acceleration, push safety net. */
export function baseIntervalMs(s: Pick<PolicyState, 'tier' | 'accelIntervalMs' | 'accelUntil'>, now: number, pushActive: boolean, cfg = DEFAULT_POLICY): number {
  let ms = cfg.tierIntervalsMs[s.tier];
  if (pushActive) ms = Math.max(ms, cfg.pushSafetyIntervalMs);
  if (s.accelUntil > now && s.accelIntervalMs > 0) ms = Math.min(ms, s.accelIntervalMs);
  return Math.max(ms, cfg.minIntervalMs);
}

/** Called when a poll starts: an open circuit whose time has come goes half-open (one probe). */
export function beginPoll(s: PolicyState, now: number): PolicyState {
  const circuit: CircuitState = s.circuit === 'open' && now >= s.nextPollAt ? 'half-open' : s.circuit;
  return { ...s, circuit, lastPollAt: now };
}

/** A poll (200 or 304) succeeded. */
export function onPollSuccess(s: PolicyState, obs: SuccessObservation, now: number, random: Random, cfg = DEFAULT_POLICY): PolicyState {
  let rate: number;
  if (s.rateAt === null) {
    rate = obs.publishedTimes && obs.publishedTimes.length > 0 ? seedRate(obs.publishedTimes, now, cfg) : -1;
  } else {
    rate = updateRate(s.ratePerHour, obs.newEntries, now - s.rateAt, cfg);
  }
  const tier = targetTier(rate, s.tier, cfg);
  const accelActive = s.accelUntil > now;
  const next: PolicyState = {
    ...s,
    tier,
    ratePerHour: rate,
    rateAt: now,
    failures: 0,
    circuit: 'closed',
    circuitOpens: 0,
    lastSuccessAt: now,
    lastError: null,
    accelIntervalMs: accelActive ? s.accelIntervalMs : 0,
    accelUntil: accelActive ? s.accelUntil : 0,
  };
  const hint = hintLowerBoundMs(obs, now, cfg);
  const interval = Math.max(baseIntervalMs(next, now, obs.pushActive ?? false, cfg), hint);
  const delay = jittered(interval, random, cfg);
  next.intervalMs = interval;
  next.nextPollAt = now + delay;
  return next;
}

/** The backoff for the n-th consecutive failure: the normal interval doubled per failure, capped. */
export function backoffMs(failures: number, normalMs: number, cfg = DEFAULT_POLICY): number {
  const exp = normalMs * 2 ** Math.min(30, Math.max(0, failures - 1));
  return Math.min(Math.max(cfg.backoffMaxMs, normalMs), exp);
}

/** How long an opened circuit stays open before its half-open probe. */
export function circuitOpenMs(opens: number, cfg = DEFAULT_POLICY): number {
  return Math.min(cfg.circuitOpenMaxMs, cfg.circuitOpenMs * 2 ** Math.min(30, Math.max(0, opens - 1)));
}

/** A poll failed (network, HTTP error, rate limit, unparseable body). */
export function onPollFailure(s: PolicyState, obs: FailureObservation, now: number, random: Random, cfg = DEFAULT_POLICY): PolicyState {
  const failures = s.failures + 1;
  let circuit: CircuitState = s.circuit;
  let opens = s.circuitOpens;
  if (s.circuit === 'half-open' || (s.circuit === 'closed' && failures >= cfg.circuitThreshold)) {
    circuit = 'open';
    opens += 1;
  }
  const normal = baseIntervalMs({ ...s, accelUntil: 0 }, now, false, cfg);
  // an opening circuit never waits less than the backoff it replaces: waits only ever grow
  let delay = backoffMs(failures, normal, cfg);
  if (circuit === 'open') delay = Math.max(delay, circuitOpenMs(opens, cfg));
  delay = jittered(delay, random, cfg);
  const retryAfter = obs.retryAfterMs != null && obs.retryAfterMs > 0 ? Math.min(obs.retryAfterMs, cfg.maxRetryAfterMs) : 0;
  delay = Math.max(delay, retryAfter, cfg.minIntervalMs);
  return {
    ...s,
    failures,
    circuit,
    circuitOpens: opens,
    lastError: obs.message ? `${obs.code}: ${obs.message}` : obs.code,
    intervalMs: delay,
    nextPollAt: now + delay,
  };
}

/**
 * Breaking news: poll at `intervalMs` until `until`. The next poll is pulled forward when it is
 * further away than the new interval, but never while the circuit is open (a broken feed stays
 * slowed) and never to before the last poll plus the new interval.
 */
export function accelerate(s: PolicyState, intervalMs: number, until: number, now: number, random: Random, cfg = DEFAULT_POLICY): PolicyState {
  if (until <= now || intervalMs <= 0) return s;
  const interval = Math.max(intervalMs, cfg.minIntervalMs);
  const next: PolicyState = { ...s, accelIntervalMs: interval, accelUntil: Math.max(until, s.accelUntil) };
  if (s.circuit !== 'closed' || s.failures > 0) return next;
  const earliest = Math.max(now, (s.lastPollAt ?? now) + interval);
  const candidate = earliest + Math.floor(random() * Math.min(interval * cfg.jitter, 30_000));
  if (candidate < s.nextPollAt) next.nextPollAt = candidate;
  return next;
}

/** Content pushed over WebSub counts towards the publishing rate like polled entries do. */
export function onPushed(s: PolicyState, newEntries: number, now: number, cfg = DEFAULT_POLICY): PolicyState {
  const rate = updateRate(s.ratePerHour, newEntries, now - (s.rateAt ?? now), cfg);
  return { ...s, ratePerHour: rate, rateAt: now, tier: targetTier(rate, s.tier, cfg) };
}
