/**
 * Why sources fail, in words an operator can act on, and whether a node's sources fail as a
 * whole. A first run on real news on a machine without network access used to fail silently:
 * every publisher failed DNS while the front page said "No stories yet" and `/readyz` said ready.
 *
 * `failureReason` sorts a publisher's last error (`"FETCH_NETWORK: //host: getaddrinfo ENOTFOUND
 * host"`) into a few reasons; the same patterns serve PostgreSQL (`~*`) for the summary over the
 * publishers table, so JavaScript and SQL never disagree. `SourceHealth` follows the last poll of
 * every feed this node polls and says when all of them fail (pure; the clock is injected).
 */

export type FailureReason =
  | 'dns'
  | 'network'
  | 'refused'
  | 'timeout'
  | 'tls'
  | 'blocked'
  | 'robots'
  | 'rate_limited'
  | 'http_error'
  | 'not_a_feed'
  | 'other';

/** Reasons in the order they are tried; patterns are plain alternations both JS and PostgreSQL read alike (case-insensitive). */
export const FAILURE_REASONS: readonly { reason: Exclude<FailureReason, 'other'>; pattern: string; message: string }[] = [
  { reason: 'dns', pattern: 'ENOTFOUND|EAI_AGAIN|EAI_NONAME|EAI_FAIL|getaddrinfo', message: 'host names do not resolve (no DNS answer): is this machine off-line, or its DNS server unreachable?' },
  { reason: 'network', pattern: 'ENETUNREACH|EHOSTUNREACH|ENETDOWN|EHOSTDOWN', message: 'no route to the servers: is this machine off-line?' },
  { reason: 'refused', pattern: 'ECONNREFUSED', message: 'the servers refused the connection' },
  { reason: 'timeout', pattern: 'FETCH_TIMEOUT|ETIMEDOUT|timed out', message: 'the servers did not answer in time' },
  { reason: 'tls', pattern: 'CERT_|certificate|ERR_TLS|ERR_SSL|self.signed', message: 'the servers\' TLS certificates were not accepted (is the system clock right?)' },
  { reason: 'blocked', pattern: 'SSRF_BLOCKED', message: 'the feed address is private or reserved (--fetch-allowlist lets such addresses through)' },
  { reason: 'robots', pattern: 'ROBOTS_DISALLOWED', message: 'the site\'s robots.txt does not allow fetching the feed' },
  { reason: 'rate_limited', pattern: 'FETCH_RATE_LIMITED', message: 'the servers asked us to slow down (429)' },
  { reason: 'http_error', pattern: 'FETCH_HTTP_ERROR|FETCH_TOO_MANY_REDIRECTS|FETCH_REDIRECT_LOOP', message: 'the servers answered with an HTTP error' },
  { reason: 'not_a_feed', pattern: 'PARSE_MALFORMED|FETCH_DECODE|FETCH_TOO_LARGE|PARSE_', message: 'the address does not serve a feed that can be read' },
];

const COMPILED = FAILURE_REASONS.map((r) => ({ ...r, re: new RegExp(r.pattern, 'i') }));

/** What a failed poll's error says, as a reason. */
export function failureReason(lastError: string | null | undefined): FailureReason {
  if (!lastError) return 'other';
  for (const r of COMPILED) if (r.re.test(lastError)) return r.reason;
  return 'other';
}

export function reasonMessage(reason: FailureReason): string {
  return FAILURE_REASONS.find((r) => r.reason === reason)?.message ?? 'the polls failed for other reasons (the admin page lists each publisher\'s last error)';
}

/** Reasons that mean this machine reaches no one, rather than that some sites misbehave. */
export const OFFLINE_REASONS: ReadonlySet<FailureReason> = new Set(['dns', 'network']);

/** How the sources of a node (or of the whole database) fare. */
export interface SourcesSummary {
  /** sources whose last poll succeeded (a 304 included) */
  ok: number;
  /** sources whose last poll failed */
  failing: number;
  /** failing sources by reason, most first */
  reasons: { reason: FailureReason; publishers: number; message: string }[];
}

/** Reasons as the summary lists them: most first, ties by name. */
export function reasonList(counts: ReadonlyMap<FailureReason, number>): SourcesSummary['reasons'] {
  return [...counts]
    .filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([reason, publishers]) => ({ reason, publishers, message: reasonMessage(reason) }));
}

/**
 * A node whose every source fails is degraded: none of the feeds polled lately succeeded, and at
 * least min(3, running) failed (one feed failing before the others are polled is no verdict).
 * Returns the sentence `/readyz` and the log give, or null.
 */
export function degradedSources(s: SourcesSummary, running: number): string | null {
  if (running <= 0 || s.ok > 0 || s.failing < Math.max(1, Math.min(3, running))) return null;
  const top = s.reasons[0];
  return `every source this node polled lately failed (${s.failing})${top ? `; ${top.publishers} of them: ${top.message}` : ''}`;
}

interface Last {
  ok: boolean;
  reason: FailureReason;
  at: number;
}

/**
 * The last poll of each feed this node polls (by feed URL), kept for `windowMs` (default a day:
 * a failing feed backs off to a day at most, so it is polled again within that), with running
 * counts so a verdict costs nothing per poll.
 */
export class SourceHealth {
  private readonly last = new Map<string, Last>();
  private okCount = 0;
  private readonly failing = new Map<FailureReason, number>();
  private lastSweep = 0;

  constructor(private readonly o: { now: () => number; windowMs?: number }) {}

  polled(url: string, error: unknown | null): void {
    this.drop(url);
    const ok = error === null;
    const reason = ok ? 'other' : failureReason(describe(error));
    this.last.set(url, { ok, reason, at: this.o.now() });
    if (ok) this.okCount++;
    else this.failing.set(reason, (this.failing.get(reason) ?? 0) + 1);
  }

  /** A feed this node no longer polls (removed, or its shard went to another node). */
  forget(url: string): void {
    this.drop(url);
  }

  summary(): SourcesSummary {
    this.sweep();
    let failing = 0;
    for (const n of this.failing.values()) failing += n;
    return { ok: this.okCount, failing, reasons: reasonList(this.failing) };
  }

  private drop(url: string): void {
    const had = this.last.get(url);
    if (!had) return;
    this.last.delete(url);
    if (had.ok) this.okCount--;
    else this.failing.set(had.reason, (this.failing.get(had.reason) ?? 1) - 1);
  }

  /** Forgets polls older than the window (at most once a minute: a sweep walks every feed). */
  private sweep(): void {
    const now = this.o.now();
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    const before = now - (this.o.windowMs ?? 86_400_000);
    for (const [url, l] of this.last) if (l.at < before) this.drop(url);
  }
}

function describe(err: unknown): string {
  if (err && typeof err === 'object') {
    const e = err as { code?: unknown; message?: unknown; cause?: { code?: unknown } };
    return `${String(e.code ?? '')}: ${String(e.message ?? '')} ${String(e.cause?.code ?? '')}`;
  }
  return String(err);
}
