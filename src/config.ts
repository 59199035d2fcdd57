import { availableParallelism, hostname } from 'node:os';
import { isIP } from 'node:net';
import { z } from 'zod';
import { EDITIONS } from './actors/model/index.js';
import { ConfigError } from './runtime/errors.js';
import { parseCidr } from './runtime/cidr.js';
import { readArgs, type FlagSpec } from './cli/args.js';

/**
 * The one config table. Every option appears once with its CLI flag, its env var
 * (`NEWSAGG_<NAME>`), its default, its validator and a doc line. Precedence: flag > env > default.
 * Values are resolved once at start-up and passed down; nothing deeper reads `process.env`.
 */

const ROLES = ['ingest', 'process', 'api'] as const;
export type Role = (typeof ROLES)[number];
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function urlWithScheme(schemes: readonly string[]) {
  return z.string().superRefine((s, ctx) => {
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not a valid URL' });
      return;
    }
    if (!schemes.includes(u.protocol)) {
      ctx.addIssue({ code: 'custom', message: `URL scheme must be ${schemes.map((x) => x.slice(0, -1)).join(' or ')}, got "${u.protocol.slice(0, -1)}"` });
    }
  });
}

const list = (s: string) => s.split(',').map((x) => x.trim()).filter((x) => x !== '');

const HOST_RE = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/i;

/** An allowlist entry: an IP, an IP CIDR, a hostname or `*.domain`. */
function isAllowEntry(s: string): boolean {
  const [addr, bits, ...rest] = s.split('/');
  if (rest.length > 0 || addr === undefined) return false;
  if (bits !== undefined) {
    const v = isIP(addr);
    const n = Number(bits);
    return v !== 0 && /^\d+$/.test(bits) && n <= (v === 4 ? 32 : 128);
  }
  return isIP(addr) !== 0 || HOST_RE.test(addr);
}

/** `host:port` (an IPv6 address in brackets) → its parts; the port may be 0 (any free port). */
const listenAddress = z.string().transform((s, ctx): { host: string; port: number } => {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):(\d{1,5})$/.exec(s.trim());
  const port = m ? Number(m[2]) : NaN;
  const host = m ? m[1]!.replace(/^\[|\]$/g, '') : '';
  if (!m || port > 65535 || (host.includes(':') && isIP(host) !== 6)) {
    ctx.addIssue({ code: 'custom', message: `expected host:port (e.g. 127.0.0.1:9464 or [::1]:9464), got "${s}"` });
    return z.NEVER;
  }
  return { host, port };
});
const intIn = (min: number, max: number) =>
  z.coerce.number({ error: 'expected a number' }).int({ error: 'expected an integer' })
    .min(min, { error: `expected an integer from ${min} to ${max}` })
    .max(max, { error: `expected an integer from ${min} to ${max}` });
const positive = z.coerce.number({ error: 'expected a number' }).positive({ error: 'expected a number above 0' }).finite({ error: 'expected a finite number' });
const bool = z.union([z.boolean(), z.string()]).transform((v, ctx) => {
  if (typeof v === 'boolean') return v;
  const s = v.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(s)) return true;
  if (['0', 'false', 'no', 'off'].includes(s)) return false;
  ctx.addIssue({ code: 'custom', message: `expected true or false, got "${v}"` });
  return z.NEVER;
});

interface OptionSpec<T> {
  /** kebab-case name; the flag is `--<name>`, the env var `NEWSAGG_<NAME_UPPER>` */
  readonly name: string;
  readonly schema: z.ZodType<T, unknown>;
  /** the default, or a function of the already-resolved earlier options */
  readonly default: T | ((c: Record<string, unknown>) => T);
  /** how the default reads in `--help` and the README */
  readonly defaultDoc?: string;
  readonly doc: string;
  /** a flag that takes no value (`--demo`, `--demo=false`) */
  readonly boolean?: boolean;
  /** never echo the value in errors (URLs may carry passwords; tokens are secrets) */
  readonly secret?: boolean;
}

function opt<T>(spec: OptionSpec<T>): OptionSpec<T> {
  return spec;
}

/** The table. Order matters only for derived defaults (an option may use earlier ones). */
export const options = {
  port: opt({ name: 'port', schema: intIn(0, 65535), default: 8080, doc: 'port of the HTTP API, the web UI and the WebSocket /v1/live (0 = any free port)' }),
  host: opt({ name: 'host', schema: z.string().min(1), default: '0.0.0.0', doc: 'address the HTTP server binds to' }),
  dataDir: opt({ name: 'data-dir', schema: z.string().min(1), default: './data', doc: 'directory for embedded storage (PGlite in <data-dir>/pg)' }),
  databaseUrl: opt({ name: 'database-url', secret: true, schema: urlWithScheme(['postgres:', 'postgresql:']).optional(), default: undefined, defaultDoc: '(embedded PGlite)', doc: 'PostgreSQL URL; unset = embedded PGlite in the data dir' }),
  redisUrl: opt({ name: 'redis-url', secret: true, schema: urlWithScheme(['redis:', 'rediss:']).optional(), default: undefined, defaultDoc: '(in-process)', doc: 'Redis URL for the feed cache; unset = in-process cache' }),
  natsUrl: opt({ name: 'nats-url', secret: true, schema: urlWithScheme(['nats:', 'tls:', 'ws:', 'wss:']).optional(), default: undefined, defaultDoc: '(in-process)', doc: 'NATS URL for routing between nodes; unset = in-process bus' }),
  natsPrefix: opt({
    name: 'nats-prefix',
    schema: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'expected 1 to 64 letters, digits, _ or -'),
    default: 'newsagg',
    doc: 'first token of every NATS subject, stream and bucket of this deployment (deployments sharing a NATS server differ here)',
  }),
  redisPrefix: opt({
    name: 'redis-prefix',
    schema: z.string().regex(/^[\x21-\x7e]{0,64}$/, 'expected up to 64 printable characters without spaces'),
    default: '',
    defaultDoc: '(none)',
    doc: 'prefix of every Redis key and channel of this deployment (deployments sharing a Redis differ here)',
  }),
  nodeId: opt({
    name: 'node-id',
    schema: z.string().regex(/^[\x21-\x7e]{1,128}$/, 'expected 1 to 128 printable characters without spaces'),
    default: (c) => `${hostname()}:${c['port'] === 0 ? `pid${process.pid}` : String(c['port'])}`,
    defaultDoc: '<host name>:<port>',
    doc: 'this node\'s id in a cluster (unique per node; with --port 0 the default is <host name>:pid<process id>)',
  }),
  roles: opt({
    name: 'roles',
    schema: z.string().transform((s, ctx): Role[] => {
      const parts = list(s);
      if (parts.length === 1 && parts[0] === 'all') return [...ROLES];
      const bad = parts.filter((p) => !(ROLES as readonly string[]).includes(p));
      if (parts.length === 0 || bad.length > 0) {
        ctx.addIssue({ code: 'custom', message: `expected "all" or a comma list of ${ROLES.join(',')}, got "${s}"` });
        return z.NEVER;
      }
      return [...new Set(parts as Role[])];
    }),
    default: [...ROLES],
    defaultDoc: 'all',
    doc: 'what this node runs: all, or a comma list of ingest,process,api',
  }),
  workers: opt({ name: 'workers', schema: intIn(1, 1024), default: () => Math.max(1, availableParallelism() - 1), defaultDoc: 'cores-1 (min 1)', doc: 'worker threads for CPU work' }),
  opml: opt({ name: 'opml', schema: z.string().min(1).optional(), default: undefined, defaultDoc: '(none)', doc: 'OPML file of publishers to import at start' }),
  demo: opt({ name: 'demo', schema: bool, default: false, boolean: true, doc: 'run with an in-process publisher simulator as sources' }),
  demoUrl: opt({
    name: 'demo-url',
    schema: urlWithScheme(['http:']).optional(),
    default: undefined,
    defaultDoc: '(a simulator of its own)',
    doc: 'with --demo: use the simulator already running at this URL (newsagg simulate; one shared by a whole cluster) instead of starting one',
  }),
  logLevel: opt({ name: 'log-level', schema: z.enum(LOG_LEVELS), default: 'info', doc: `log level: ${LOG_LEVELS.join('|')}` }),
  adminToken: opt({ name: 'admin-token', secret: true, schema: z.string().min(16, 'must be at least 16 characters').optional(), default: undefined, defaultDoc: '(admin routes off)', doc: 'bearer token for admin routes; unset = admin routes off' }),
  metricsListen: opt({
    name: 'metrics-listen',
    schema: listenAddress.optional(),
    default: undefined,
    defaultDoc: '(on --port, admin token required)',
    doc: 'host:port serving /metrics without a token (keep it private); unset = /metrics on --port behind --admin-token',
  }),
  cursorSecret: opt({ name: 'cursor-secret', secret: true, schema: z.string().min(16, 'must be at least 16 characters').optional(), default: undefined, defaultDoc: '(random per process)', doc: 'HMAC secret for feed cursors; set it when several nodes serve the API' }),
  publicUrl: opt({ name: 'public-url', schema: urlWithScheme(['http:', 'https:']).optional(), default: undefined, defaultDoc: '(none: no WebSub)', doc: 'base URL where hubs reach this node for WebSub callbacks; unset = poll only' }),
  contactUrl: opt({ name: 'contact-url', schema: urlWithScheme(['http:', 'https:', 'mailto:']).optional(), default: undefined, defaultDoc: '(none)', doc: 'contact URL (or mailto:) sent to publishers in the User-Agent' }),
  userAgent: opt({
    name: 'user-agent',
    schema: z.string().min(1),
    default: (c) => (c['contactUrl'] ? `newsagg/0.1 (+${String(c['contactUrl'])})` : 'newsagg/0.1'),
    defaultDoc: 'newsagg/0.1 (+<contact-url>)',
    doc: 'User-Agent for fetching feeds',
  }),
  fetchAllowlist: opt({
    name: 'fetch-allowlist',
    schema: z.string().transform((s, ctx): string[] => {
      const parts = list(s);
      const bad = parts.find((p) => !isAllowEntry(p));
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `not an IP, CIDR or host name: "${bad}"` });
        return z.NEVER;
      }
      return parts;
    }),
    default: [],
    defaultDoc: '(none)',
    doc: 'comma list of CIDRs/hosts the SSRF guard lets through (e.g. 127.0.0.1/32 for local tests)',
  }),
  dedupWindowHours: opt({ name: 'dedup-window-hours', schema: positive, default: 72, doc: 'how long an article can be matched as a near-duplicate' }),
  activeWindowHours: opt({ name: 'active-window-hours', schema: positive, default: 48, doc: 'how long a story stays open for new articles' }),
  storySnapshotMinutes: opt({ name: 'story-snapshot-minutes', schema: intIn(0, 1440), default: 5, doc: 'how often the story owner writes its clusterer snapshot to the database (a new owner loads it and replays only the articles stored since); 0 = never' }),
  maxEntriesPerPoll: opt({ name: 'max-entries-per-poll', schema: intIn(1, 1000), default: 100, doc: 'articles one feed puts into the ingest log at once; a document with more new entries goes in steps of this size, newest first' }),
  ingestQueueMax: opt({ name: 'ingest-queue-max', schema: intIn(100, 1_000_000), default: 5_000, doc: 'raw articles waiting in the ingest log before publishers wait for room' }),
  ingestStallSeconds: opt({ name: 'ingest-stall-seconds', schema: intIn(5, 86_400), default: 60, doc: '/readyz says not ready when articles wait this long with none stored' }),
  rateLimitRps: opt({ name: 'rate-limit-rps', schema: positive, default: 20, doc: 'public API requests per second per client (token or IP)' }),
  rateLimitBurst: opt({ name: 'rate-limit-burst', schema: intIn(1, 1_000_000), default: 40, doc: 'public API burst size per client' }),
  websubRateLimitRps: opt({ name: 'websub-rate-limit-rps', schema: positive, default: 2, doc: 'WebSub callbacks (/websub/:id) per second per publisher' }),
  websubRateLimitBurst: opt({ name: 'websub-rate-limit-burst', schema: intIn(1, 1_000_000), default: 20, doc: 'WebSub callback burst size per publisher' }),
  bodyLimitBytes: opt({ name: 'body-limit-bytes', schema: intIn(1, 1 << 30), default: 1 << 20, defaultDoc: '1048576', doc: 'largest HTTP request body accepted' }),
  trustProxy: opt({
    name: 'trust-proxy',
    schema: z.string().transform((s, ctx): string[] => {
      const parts = list(s);
      const bad = parts.find((p) => parseCidr(p) === null);
      if (bad !== undefined) {
        ctx.addIssue({ code: 'custom', message: `not an IP address or CIDR: "${bad}"` });
        return z.NEVER;
      }
      return parts;
    }),
    default: [],
    defaultDoc: '(none)',
    doc: 'comma list of proxy addresses/CIDRs whose X-Forwarded-For is believed (the right-most untrusted hop is the client)',
  }),
  apiTokens: opt({
    name: 'api-tokens',
    secret: true,
    schema: z.string().transform((s, ctx): string[] => {
      const parts = list(s);
      if (parts.some((p) => p.length < 16 || !/^[\x21-\x7e]+$/.test(p))) {
        ctx.addIssue({ code: 'custom', message: 'each token must be at least 16 printable characters without spaces' });
        return z.NEVER;
      }
      return [...new Set(parts)];
    }),
    default: [],
    defaultDoc: '(none)',
    doc: 'comma list of per-client API tokens (Authorization: Bearer); each has its own rate-limit bucket and reader profile',
  }),
  retentionDays: opt({ name: 'retention-days', schema: intIn(1, 36_500), default: 30, doc: 'articles (whole month partitions), clicks and emptied stories older than this are deleted' }),
  catalogue: opt({
    name: 'catalogue',
    schema: z.enum(['all', ...EDITIONS]).optional(),
    default: undefined,
    defaultDoc: '(none)',
    doc: 'on an empty database, add the shipped catalogue of real publishers: an edition (us, uk, eu, apac, latam, mea, global) or all',
  }),
  askTimeoutSeconds: opt({
    name: 'ask-timeout-seconds',
    schema: intIn(1, 86_400),
    default: 60,
    doc: 'cluster: longest wait for an answer from the node owning a shard (dedup, stories, a publisher); an ask whose owner leaves, or whose NATS link drops, goes to the new owner at once',
  }),
  shutdownTimeoutMs: opt({ name: 'shutdown-timeout-ms', schema: intIn(0, 3_600_000), default: 15_000, doc: 'graceful-shutdown budget before the process exits anyway' }),
  breakingWindowMinutes: opt({ name: 'breaking-window-minutes', schema: positive, default: 10, doc: 'breaking news: the sliding window a spike is counted in' }),
  breakingBaselineMinutes: opt({ name: 'breaking-baseline-minutes', schema: positive, default: 60, doc: 'breaking news: the rolling baseline (articles per window) is taken over this long before the window' }),
  breakingRatio: opt({ name: 'breaking-ratio', schema: positive, default: 3, doc: 'breaking news: a spike is at least this many times the baseline, counted in publishers carrying a story, entity or place within the window' }),
  breakingMinPublishers: opt({ name: 'breaking-min-publishers', schema: intIn(1, 100_000), default: 8, doc: 'breaking news: distinct publishers a spike needs at least within the window' }),
  breakingMinBaseline: opt({ name: 'breaking-min-baseline', schema: positive, default: 8, doc: 'breaking news: baseline floor in articles per window (a new story has no rate of its own)' }),
  breakingBaselineShare: opt({ name: 'breaking-baseline-share', schema: positive.max(1, { error: 'expected a share from 0 to 1' }), default: 0.025, doc: 'breaking news: baseline floor as a share of all articles per window' }),
  breakingCooldownMinutes: opt({ name: 'breaking-cooldown-minutes', schema: positive, default: 120, doc: 'breaking news: a story stops being breaking this long after its last spike' }),
  breakingEarlyShare: opt({ name: 'breaking-early-share', schema: positive.max(1, { error: 'expected a share from 0 to 1' }), default: 0.5, doc: 'breaking news: a story whose publishers in the window reach this share of what a spike needs is rising: its likely publishers are polled faster before it breaks (1 = only once it breaks)' }),
  breakingAccelerateMinutes: opt({ name: 'breaking-accelerate-minutes', schema: positive, default: 30, doc: 'breaking news: how long the publishers that covered the story\'s regions or topic in the last day are polled faster' }),
  breakingAccelerateIntervalSeconds: opt({ name: 'breaking-accelerate-interval-seconds', schema: intIn(60, 86_400), default: 60, doc: 'breaking news: their polling interval meanwhile (longer where many share a host: politeness)' }),
  liveMaxSubscriptions: opt({ name: 'live-max-subscriptions', schema: intIn(1, 10_000), default: 64, doc: 'WebSocket: topics one connection may subscribe to' }),
  liveMaxFrameBytes: opt({ name: 'live-max-frame-bytes', schema: intIn(64, 1 << 20), default: 4096, doc: 'WebSocket: largest client frame answered (larger gets an error frame; over 16x, the connection is closed with 1009)' }),
  liveMaxConnectionsPerClient: opt({ name: 'live-max-connections-per-client', schema: intIn(1, 1_000_000), default: 16, doc: 'WebSocket: open connections per client address' }),
  liveConnectRps: opt({ name: 'live-connect-rps', schema: positive, default: 1, doc: 'WebSocket: new connections (upgrades) per second per client address; more get 429 with Retry-After' }),
  liveConnectBurst: opt({ name: 'live-connect-burst', schema: intIn(1, 1_000_000), default: 16, doc: 'WebSocket: burst of new connections per client address' }),
  liveMaxBufferBytes: opt({ name: 'live-max-buffer-bytes', schema: intIn(1024, 1 << 30), default: 65_536, doc: 'WebSocket: unsent bytes per connection before updates are coalesced; a connection that stays behind is closed' }),
  liveHeartbeatSeconds: opt({ name: 'live-heartbeat-seconds', schema: intIn(8, 3_600), default: 32, doc: 'WebSocket: idle connections are pinged; one that stays silent (no pong) for about this long is closed' }),
  vapidPrivateKey: opt({
    name: 'vapid-private-key',
    secret: true,
    schema: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'expected the base64url of a 32-byte P-256 private key (43 characters)').optional(),
    default: undefined,
    defaultDoc: '(generated once, kept in the database)',
    doc: 'push alerts: the VAPID private key that signs every push; unset = one generated on first start and shared by every node through the database',
  }),
  vapidSubject: opt({
    name: 'vapid-subject',
    schema: urlWithScheme(['mailto:', 'https:']),
    default: (c) => (typeof c['contactUrl'] === 'string' && /^(mailto|https):/.test(c['contactUrl']) ? c['contactUrl'] : 'mailto:webpush@newsagg.invalid'),
    defaultDoc: '--contact-url if mailto: or https:, else mailto:webpush@newsagg.invalid',
    doc: 'push alerts: the contact (mailto: or https:) push services see in the VAPID claim',
  }),
  pushAllowHttp: opt({ name: 'push-allow-http', schema: bool, default: false, boolean: true, doc: 'push alerts: accept plain http endpoints on loopback hosts (tests; push services are https)' }),
  pushDailyCap: opt({ name: 'push-daily-cap', schema: intIn(1, 1000), default: 10, doc: 'push alerts: most alerts a reader gets per local day (a reader may ask for fewer)' }),
  pushQuietHours: opt({
    name: 'push-quiet-hours',
    schema: z.string().transform((s, ctx): { start: string; end: string } | null => {
      if (s.trim().toLowerCase() === 'off') return null;
      const m = /^\s*(([01]\d|2[0-3]):[0-5]\d)\s*-\s*(([01]\d|2[0-3]):[0-5]\d)\s*$/.exec(s);
      if (!m) {
        ctx.addIssue({ code: 'custom', message: `expected HH:MM-HH:MM or off, got "${s}"` });
        return z.NEVER;
      }
      return { start: m[1]!, end: m[3]! };
    }),
    default: { start: '22:00', end: '07:00' },
    defaultDoc: '22:00-07:00',
    doc: 'push alerts: default quiet hours in the reader\'s time zone (HH:MM-HH:MM or off); nothing is sent then',
  }),
  pushStoryThrottleMinutes: opt({ name: 'push-story-throttle-minutes', schema: positive, default: 60, doc: 'push alerts: a followed story alerts a subscription at most this often' }),
  pushTopicThreshold: opt({ name: 'push-topic-threshold', schema: intIn(2, 100_000), default: 10, doc: 'push alerts: articles a story of a followed topic or place needs before it alerts (a reader may choose another)' }),
} as const;

type Options = typeof options;
type ValueOf<S> = S extends OptionSpec<infer T> ? T : never;

/** The resolved, typed, frozen configuration. */
export type Config = { readonly [K in keyof Options]: ValueOf<Options[K]> };

/** `port` → `NEWSAGG_PORT`, `data-dir` → `NEWSAGG_DATA_DIR`. */
export function envName(name: string): string {
  return `NEWSAGG_${name.toUpperCase().replace(/-/g, '_')}`;
}

const byFlag = new Map<string, keyof Options>(
  (Object.keys(options) as (keyof Options)[]).map((k) => [options[k].name, k]),
);

/** Every flag `util.parseArgs` should know: each option by name, and `--no-X` for boolean ones. */
const flagSpecs: Record<string, FlagSpec> = Object.fromEntries(
  (Object.keys(options) as (keyof Options)[]).flatMap((k): [string, FlagSpec][] => {
    const spec: OptionSpec<unknown> = options[k];
    return spec.boolean ? [[spec.name, { type: 'boolean' }], [`no-${spec.name}`, { type: 'boolean' }]] : [[spec.name, { type: 'string' }]];
  }),
);

/** Splits argv into option values (util.parseArgs); throws ConfigError on unknown flags or positionals. */
function parseArgv(argv: readonly string[]): Map<keyof Options, string | boolean> {
  if (argv.includes('--')) throw new ConfigError('unexpected argument "--" (see --help)');
  const args = readArgs(argv, flagSpecs, 0, true);
  if (typeof args === 'string') {
    const stray = /^unexpected argument (.*)$/.exec(args);
    if (stray) throw new ConfigError(`unexpected argument "${stray[1]}" (see --help)`);
    const missing = /^--(\S+) needs /.exec(args);
    if (missing) throw new ConfigError(`option --${missing[1]} needs a value`);
    const valued = /^--(\S+) takes no value$/.exec(args);
    if (valued) throw new ConfigError(`unknown option ${argv.find((a) => a.startsWith(`--${valued[1]}=`)) ?? `--${valued[1]}`} (see --help)`);
    throw new ConfigError(`${args} (see --help)`);
  }
  const out = new Map<keyof Options, string | boolean>();
  for (const [name, value] of Object.entries(args.values)) {
    if (value === undefined) continue;
    const negated = name.startsWith('no-') && !byFlag.has(name);
    out.set(byFlag.get(negated ? name.slice(3) : name)!, negated ? false : value);
  }
  return out;
}

/**
 * Resolves the configuration from argv (flags after the command name) and an environment.
 * Returns a frozen object or throws ConfigError with one line naming the culprit.
 */
export function resolveConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): Config {
  const flags = parseArgv(argv);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(options) as (keyof Options)[]) resolveOne(key, flags, env, out);
  return Object.freeze(out) as Config;
}

/**
 * The storage options alone (`--data-dir`, `--database-url`, from flags, else their NEWSAGG_*
 * variables, else defaults), checked as `start` checks them: for the subcommands that open the store.
 */
export function resolveStorage(flags: { dataDir?: string | undefined; databaseUrl?: string | undefined }, env: Readonly<Record<string, string | undefined>> = {}): Pick<Config, 'dataDir' | 'databaseUrl'> {
  const given = new Map<keyof Options, string | boolean>();
  if (flags.dataDir !== undefined) given.set('dataDir', flags.dataDir);
  if (flags.databaseUrl !== undefined) given.set('databaseUrl', flags.databaseUrl);
  const out: Record<string, unknown> = {};
  resolveOne('dataDir', given, env, out);
  resolveOne('databaseUrl', given, env, out);
  return out as Pick<Config, 'dataDir' | 'databaseUrl'>;
}

function resolveOne(key: keyof Options, flags: Map<keyof Options, string | boolean>, env: Readonly<Record<string, string | undefined>>, out: Record<string, unknown>): void {
  const spec: OptionSpec<unknown> = options[key];
  const envKey = envName(spec.name);
  let raw: unknown;
  let source: string;
  if (flags.has(key)) {
    raw = flags.get(key);
    source = `--${spec.name}`;
  } else if (env[envKey] !== undefined && env[envKey] !== '') {
    raw = env[envKey];
    source = envKey;
  } else {
    const d = spec.default;
    out[key] = typeof d === 'function' ? (d as (c: Record<string, unknown>) => unknown)(out) : d;
    return;
  }
  const parsed = spec.schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const msg = issue?.message ?? 'invalid value';
    const echoed = msg.includes('got "') || (typeof raw === 'string' && msg.includes(`"${raw}"`));
    const shown = typeof raw === 'string' && !spec.secret && !echoed ? ` (got "${raw}")` : '';
    throw new ConfigError(`${source}: ${msg}${shown}`, parsed.error);
  }
  out[key] = parsed.data;
}

/** One row per option, for `--help` and the README. */
export function describeOptions(): { flag: string; env: string; default: string; doc: string }[] {
  return (Object.keys(options) as (keyof Options)[]).map((k) => {
    const spec: OptionSpec<unknown> = options[k];
    const d = spec.defaultDoc ?? (typeof spec.default === 'function' ? '(derived)' : JSON.stringify(spec.default));
    return { flag: `--${spec.name}${spec.boolean ? '' : ' <value>'}`, env: envName(spec.name), default: d.replace(/^"|"$/g, ''), doc: spec.doc };
  });
}
