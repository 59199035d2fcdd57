/**
 * Which publishers are polled faster while a story breaks, and how fast: pure policy over an
 * injected time.
 *
 * The publishers likely to cover a breaking story are the ones that covered its region or its
 * topic lately (whatever their tier): those that did both come first, then those of its region,
 * then those of its topic, each by how much they wrote. Each is polled every `intervalMs` for
 * `durationMs`, within politeness: publishers sharing a host never ask it more often, together,
 * than once per `hostMinIntervalMs` (the fetcher's per-host delay), so a host with many
 * accelerated feeds gets a longer interval rather than a burst. A feed whose circuit is open or
 * half-open (broken, rate limited) stays slowed, and one its site's robots.txt refuses is left out.
 */

export interface AccelerationPolicy {
  /** polling interval while a story breaks (default 60 s) */
  intervalMs: number;
  /** how long (default 30 min) */
  durationMs: number;
  /** most publishers accelerated for one story */
  max: number;
  /** the fetcher's minimum time between two requests to one host */
  hostMinIntervalMs: number;
}

export const DEFAULT_ACCELERATION: AccelerationPolicy = { intervalMs: 60_000, durationMs: 30 * 60_000, max: 500, hostMinIntervalMs: 1_000 };

/** A publisher that wrote about the story's region or topic lately. */
export interface CoverageCandidate {
  id: string;
  feedUrl: string;
  /** its articles of the story's regions in the look-back */
  regionArticles: number;
  /** its articles of the story's category in the look-back */
  topicArticles: number;
  circuit: string;
  /** `CODE: message` of its last failure, if any */
  lastError: string | null;
}

/** One publisher to poll faster: every `intervalMs` until `until`. */
export interface AccelerationOrder {
  id: string;
  intervalMs: number;
  until: number;
}

/** A feed that must not be polled faster: a broken or rate-limited one, or one robots.txt refuses. */
export function eligible(c: CoverageCandidate): boolean {
  if (c.circuit !== 'closed') return false;
  if (c.lastError !== null && c.lastError.startsWith('ROBOTS_DISALLOWED')) return false;
  return c.regionArticles > 0 || c.topicArticles > 0;
}

/** Region and topic both, then region, then topic; more articles first; ids break ties. */
export function rankCandidates(list: readonly CoverageCandidate[]): CoverageCandidate[] {
  const group = (c: CoverageCandidate) => (c.regionArticles > 0 && c.topicArticles > 0 ? 0 : c.regionArticles > 0 ? 1 : 2);
  return [...list].sort(
    (a, b) => group(a) - group(b) || b.regionArticles + b.topicArticles - (a.regionArticles + a.topicArticles) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/** The host a feed is fetched from (the URL itself when it does not parse: a host of its own). */
export function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}

/**
 * The acceleration orders for a story that starts breaking at `now`: the best `max` eligible
 * candidates, each at `intervalMs`, or slower where its host is shared: n accelerated feeds on
 * one host poll every max(intervalMs, n × hostMinIntervalMs).
 */
export function planAcceleration(candidates: readonly CoverageCandidate[], now: number, policy: AccelerationPolicy = DEFAULT_ACCELERATION): AccelerationOrder[] {
  const chosen = rankCandidates(candidates.filter(eligible)).slice(0, Math.max(0, policy.max));
  const perHost = new Map<string, number>();
  for (const c of chosen) perHost.set(hostOf(c.feedUrl), (perHost.get(hostOf(c.feedUrl)) ?? 0) + 1);
  const until = now + policy.durationMs;
  return chosen.map((c) => ({
    id: c.id,
    intervalMs: Math.max(policy.intervalMs, (perHost.get(hostOf(c.feedUrl)) ?? 1) * policy.hostMinIntervalMs),
    until,
  }));
}
