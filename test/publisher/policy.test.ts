import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY as cfg,
  accelerate,
  backoffMs,
  beginPoll,
  circuitOpenMs,
  hintLowerBoundMs,
  initialPolicyState,
  jittered,
  onPollFailure,
  onPollSuccess,
  onPushed,
  seedRate,
  targetTier,
  updateRate,
  type PolicyState,
  type Tier,
} from '../../src/actors/publisher/policy.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const T0 = Date.UTC(2026, 0, 1);
const noJitter = () => 0;
const maxJitter = () => 0.999999;

function state(over: Partial<PolicyState> = {}): PolicyState {
  return { ...initialPolicyState(T0, noJitter), ratePerHour: 1.5, rateAt: T0, lastSuccessAt: T0, ...over };
}

describe('tiers from publishing rate', () => {
  it.each<[number, Tier, Tier]>([
    // rate/h, current tier, expected
    [10, 3, 0], // heavy publisher promoted straight to 5 min
    [4, 1, 0],
    [3.9, 1, 1],
    [1, 2, 1],
    [0.5, 2, 2], // 0.5/h ≥ 1/6: tier 2
    [0.08, 2, 3], // below half the tier-2 threshold (1/12): demoted
    [0.09, 2, 2], // above half the threshold: hysteresis keeps tier 2
    [2.5, 0, 0], // hysteresis: still ≥ 2 (half of 4)
    [1.9, 0, 1], // demoted one tier: still ≥ 1
    [0.4, 0, 2], // demoted two tiers
    [0, 0, 3],
    [-1, 2, 2], // unknown rate keeps the current tier
  ])('rate %f in tier %i → tier %i', (rate, current, expected) => {
    expect(targetTier(rate, current)).toBe(expected);
  });

  it('default tier intervals are 5/15/30/120 min', () => {
    expect(cfg.tierIntervalsMs).toEqual([5 * MIN, 15 * MIN, 30 * MIN, 120 * MIN]);
  });

  it('promotes a publisher that starts posting often and demotes it when it goes quiet', () => {
    let s = state({ tier: 2, ratePerHour: 0.3 });
    let t = T0;
    const tiers: number[] = [];
    for (let i = 0; i < 48; i++) {
      t += 15 * MIN;
      s = onPollSuccess(s, { newEntries: 3, notModified: false }, t, noJitter); // 12/h
    }
    tiers.push(s.tier);
    for (let i = 0; i < 200; i++) {
      t += 30 * MIN;
      s = onPollSuccess(s, { newEntries: 0, notModified: true }, t, noJitter);
    }
    tiers.push(s.tier);
    expect(tiers).toEqual([0, 3]);
  });
});

describe('rate estimate', () => {
  it.each([
    // rate, new, elapsed, expected
    [0, 12, 0, 1], // 12 entries with τ = 12 h add 1/h
    [2, 0, 12 * HOUR, 2 * Math.exp(-1)],
    [-1, 6, HOUR, 0.5], // unknown counts as 0
  ])('updateRate(%f, %i, %i) = %f', (rate, n, dt, expected) => {
    expect(updateRate(rate, n, dt)).toBeCloseTo(expected, 6);
  });

  it('converges on a steady Poisson-like rate', () => {
    let r = 0;
    for (let i = 0; i < 400; i++) r = updateRate(r, 1, 15 * MIN); // 4/h
    expect(r).toBeGreaterThan(3.8);
    expect(r).toBeLessThan(4.2);
  });

  it('seeds from publish dates on a first poll, ignoring far-future dates', () => {
    const times = Array.from({ length: 24 }, (_, i) => T0 - i * 30 * MIN); // 2/h over 12 h
    const seeded = seedRate([...times, T0 + 10 * HOUR], T0);
    expect(seeded).toBeGreaterThan(1);
    expect(seeded).toBeLessThan(2);
    const s = onPollSuccess(initialPolicyState(T0, noJitter), { newEntries: 24, notModified: false, publishedTimes: times }, T0, noJitter);
    expect(s.ratePerHour).toBeCloseTo(seedRate(times, T0), 9);
    expect(s.tier).toBe(1);
  });

  it('pushed entries count towards the rate', () => {
    const s = onPushed(state({ ratePerHour: 0, tier: 3 }), 60, T0 + MIN);
    expect(s.ratePerHour).toBeCloseTo(5, 1);
    expect(s.tier).toBe(0);
  });
});

describe('success intervals', () => {
  it.each([
    // tier, hints, pushActive, expected interval
    [0, {}, false, 5 * MIN],
    [1, {}, false, 15 * MIN],
    [2, {}, false, 30 * MIN],
    [3, {}, false, 120 * MIN],
    [0, { ttlMinutes: 60 }, false, 60 * MIN], // RSS ttl is a lower bound
    [3, { ttlMinutes: 60 }, false, 120 * MIN], // ... not an upper bound
    [0, { maxAgeMs: 20 * MIN }, false, 20 * MIN],
    [0, { expiresAt: T0 + 45 * MIN }, false, 45 * MIN],
    [0, { expiresAt: T0 - MIN }, false, 5 * MIN], // expired already: no bound
    [0, { ttlMinutes: 7 * 24 * 60 }, false, 12 * HOUR], // absurd ttl capped
    [0, {}, true, 3 * HOUR], // WebSub active: polling is a safety net
  ])('tier %i with %o (push %s) → %i ms', (tier, hints, push, expected) => {
    const s = onPollSuccess(state({ tier: tier as Tier, ratePerHour: [10, 2, 0.5, 0.01][tier]! }), { newEntries: 0, notModified: true, pushActive: push, ...hints }, T0, noJitter);
    expect(s.intervalMs).toBe(expected);
    expect(s.nextPollAt).toBe(T0 + expected);
  });

  it('jitter only lengthens, by at most 10 %', () => {
    expect(jittered(10 * MIN, noJitter)).toBe(10 * MIN);
    expect(jittered(10 * MIN, maxJitter)).toBe(11 * MIN);
    const s = onPollSuccess(state({ tier: 0, ratePerHour: 10 }), { newEntries: 0, notModified: true, maxAgeMs: 20 * MIN }, T0, maxJitter);
    expect(s.nextPollAt - T0).toBeGreaterThanOrEqual(20 * MIN);
    expect(s.nextPollAt - T0).toBeLessThanOrEqual(22 * MIN);
  });

  it('spreads publishers that start together', () => {
    let seed = 1;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const next = new Set<number>();
    for (let i = 0; i < 100; i++) next.add(onPollSuccess(state(), { newEntries: 0, notModified: true }, T0, rnd).nextPollAt);
    expect(next.size).toBeGreaterThan(90);
  });

  it('hint lower bound takes the largest hint', () => {
    expect(hintLowerBoundMs({ ttlMinutes: 10, maxAgeMs: 30 * MIN, expiresAt: T0 + 20 * MIN }, T0)).toBe(30 * MIN);
    expect(hintLowerBoundMs({ ttlMinutes: null, maxAgeMs: null, expiresAt: null }, T0)).toBe(0);
  });
});

describe('failures, backoff and Retry-After', () => {
  it.each([
    // failures, normal interval, expected backoff
    [1, 15 * MIN, 15 * MIN], // first failure: the normal interval, never faster
    [2, 15 * MIN, 30 * MIN],
    [3, 15 * MIN, 60 * MIN],
    [4, 15 * MIN, 120 * MIN],
    [9, 15 * MIN, 6 * HOUR], // capped
    [3, 120 * MIN, 6 * HOUR],
    [1, 10 * HOUR, 10 * HOUR], // a slow tier is never sped up by the cap
  ])('backoff after %i failures at %i ms = %i ms', (n, normal, expected) => {
    expect(backoffMs(n, normal)).toBe(expected);
  });

  it('slows down, honours Retry-After and records why', () => {
    let s = state({ tier: 1 });
    s = onPollFailure(s, { code: 'FETCH_TIMEOUT', message: 'no answer in 30 s' }, T0, noJitter);
    expect(s).toMatchObject({ failures: 1, circuit: 'closed', lastError: 'FETCH_TIMEOUT: no answer in 30 s', nextPollAt: T0 + 15 * MIN });
    s = onPollFailure(s, { code: 'FETCH_RATE_LIMITED', retryAfterMs: 3 * HOUR }, T0, noJitter);
    expect(s.nextPollAt).toBe(T0 + 3 * HOUR); // Retry-After beats the 30 min backoff
    s = onPollFailure(s, { code: 'FETCH_RATE_LIMITED', retryAfterMs: MIN }, T0, noJitter);
    expect(s.nextPollAt).toBe(T0 + 60 * MIN); // ... but never shortens it
    s = onPollFailure(s, { code: 'FETCH_RATE_LIMITED', retryAfterMs: 30 * 24 * HOUR }, T0, noJitter);
    expect(s.nextPollAt - T0).toBeLessThanOrEqual(24 * HOUR); // absurd Retry-After capped: never abandoned
  });

  it('backoff jitter never undercuts the backoff', () => {
    const s = onPollFailure(state({ failures: 1 }), { code: 'X' }, T0, maxJitter);
    expect(s.nextPollAt - T0).toBeGreaterThanOrEqual(30 * MIN);
    expect(s.nextPollAt - T0).toBeLessThanOrEqual(33 * MIN);
  });

  it('a success clears failures and the error', () => {
    const failed = onPollFailure(state({ failures: 3 }), { code: 'FETCH_HTTP_ERROR' }, T0, noJitter);
    const ok = onPollSuccess(failed, { newEntries: 1, notModified: false }, T0 + HOUR, noJitter);
    expect(ok).toMatchObject({ failures: 0, lastError: null, circuit: 'closed' });
  });
});

describe('circuit breaker', () => {
  it('opens after 5 consecutive failures, probes half-open, reopens longer, closes on success', () => {
    let s = state({ tier: 0, ratePerHour: 10 });
    let t = T0;
    const trace: string[] = [];
    for (let i = 0; i < 5; i++) {
      s = onPollFailure(beginPoll(s, t), { code: 'FETCH_HTTP_ERROR', message: 'HTTP 503' }, t, noJitter);
      trace.push(`${s.failures}:${s.circuit}`);
      t = s.nextPollAt;
    }
    expect(trace).toEqual(['1:closed', '2:closed', '3:closed', '4:closed', '5:open']);
    expect(s.nextPollAt - s.lastPollAt!).toBe(80 * MIN); // max(open period 1 h, backoff 5 min · 2^4)
    expect(beginPoll(s, t - 1).circuit).toBe('open'); // too early: no probe
    s = beginPoll(s, t);
    expect(s.circuit).toBe('half-open');
    s = onPollFailure(s, { code: 'FETCH_HTTP_ERROR' }, t, noJitter);
    expect(s).toMatchObject({ circuit: 'open', circuitOpens: 2 });
    expect(s.nextPollAt - t).toBe(160 * MIN); // max(2 h, 5 min · 2^5)
    t = s.nextPollAt;
    s = onPollSuccess(beginPoll(s, t), { newEntries: 0, notModified: true }, t, noJitter);
    expect(s).toMatchObject({ circuit: 'closed', circuitOpens: 0, failures: 0, lastError: null });
  });

  it.each<[Tier]>([[0], [1], [2], [3]])('waits never shrink while failing (tier %i)', (tier) => {
    let s = state({ tier });
    let t = T0;
    let prev = 0;
    for (let i = 0; i < 30; i++) {
      s = onPollFailure(beginPoll(s, t), { code: 'FETCH_NETWORK' }, t, noJitter);
      const wait = s.nextPollAt - t;
      expect(wait).toBeGreaterThanOrEqual(prev);
      expect(wait).toBeLessThanOrEqual(24 * HOUR);
      prev = wait;
      t = s.nextPollAt;
    }
    expect(s.circuit).toBe('open');
  });

  it.each([
    [1, HOUR],
    [2, 2 * HOUR],
    [5, 16 * HOUR],
    [6, 24 * HOUR],
    [40, 24 * HOUR], // a dead feed is still probed daily
  ])('open period after %i openings = %i ms', (opens, expected) => {
    expect(circuitOpenMs(opens)).toBe(expected);
  });
});

describe('accelerate', () => {
  it('pulls the next poll forward until the deadline, then returns to normal', () => {
    let s = state({ tier: 3, ratePerHour: 0.01, lastPollAt: T0, nextPollAt: T0 + 2 * HOUR });
    s = accelerate(s, 2 * MIN, T0 + 30 * MIN, T0 + MIN, noJitter);
    expect(s.nextPollAt).toBe(T0 + 2 * MIN); // last poll + 2 min
    s = onPollSuccess(s, { newEntries: 0, notModified: true }, T0 + 2 * MIN, noJitter);
    expect(s.intervalMs).toBe(2 * MIN);
    s = onPollSuccess(s, { newEntries: 0, notModified: true }, T0 + 31 * MIN, noJitter);
    expect(s).toMatchObject({ intervalMs: 120 * MIN, accelUntil: 0, accelIntervalMs: 0 });
  });

  it('respects cache hints while accelerated, and leaves an open circuit alone', () => {
    let s = accelerate(state({ tier: 1 }), MIN, T0 + HOUR, T0, noJitter);
    s = onPollSuccess(s, { newEntries: 0, notModified: true, maxAgeMs: 5 * MIN }, T0, noJitter);
    expect(s.intervalMs).toBe(5 * MIN);
    const open = state({ circuit: 'open', failures: 5, nextPollAt: T0 + HOUR });
    expect(accelerate(open, MIN, T0 + HOUR, T0, noJitter).nextPollAt).toBe(T0 + HOUR);
  });

  it('ignores a deadline in the past', () => {
    const s = state();
    expect(accelerate(s, MIN, T0 - 1, T0, noJitter)).toBe(s);
  });
});
