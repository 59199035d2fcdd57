import { describe, expect, it } from 'vitest';
import { describeOptions, envName, options, resolveConfig } from '../../src/config.js';
import { ConfigError } from '../../src/runtime/errors.js';

describe('config table', () => {
  it('every option has a kebab name, a doc line and a unique env var', () => {
    const envs = new Set<string>();
    for (const spec of Object.values(options)) {
      expect(spec.name).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(spec.doc.length).toBeGreaterThan(10);
      envs.add(envName(spec.name));
    }
    expect(envs.size).toBe(Object.keys(options).length);
    expect(envName('database-url')).toBe('NEWSAGG_DATABASE_URL');
    expect(describeOptions().map((r) => r.env)).toContain('NEWSAGG_RATE_LIMIT_BURST');
  });

  it('defaults with nothing given: embedded mode, all roles', () => {
    const c = resolveConfig([], {});
    expect(c).toMatchObject({ port: 8080, host: '0.0.0.0', dataDir: './data', databaseUrl: undefined, redisUrl: undefined, natsUrl: undefined,
      roles: ['ingest', 'process', 'api'], demo: false, logLevel: 'info', dedupWindowHours: 72, activeWindowHours: 48, fetchAllowlist: [] });
    expect(c.workers).toBeGreaterThanOrEqual(1);
    expect(Object.isFrozen(c)).toBe(true);
  });

  const precedence: [string, string[], Record<string, string>, Partial<Record<string, unknown>>][] = [
    ['env over default', [], { NEWSAGG_PORT: '9001' }, { port: 9001 }],
    ['flag over env', ['--port', '9002'], { NEWSAGG_PORT: '9001' }, { port: 9002 }],
    ['--flag=value form', ['--port=9003'], { NEWSAGG_PORT: '9001' }, { port: 9003 }],
    ['empty env counts as unset', [], { NEWSAGG_PORT: '' }, { port: 8080 }],
    ['boolean flag without value', ['--demo'], { NEWSAGG_DEMO: 'false' }, { demo: true }],
    ['boolean env', [], { NEWSAGG_DEMO: 'yes' }, { demo: true }],
    ['--no-demo beats env', ['--no-demo'], { NEWSAGG_DEMO: '1' }, { demo: false }],
    ['roles list', ['--roles', 'api,ingest,api'], {}, { roles: ['api', 'ingest'] }],
    ['roles all', [], { NEWSAGG_ROLES: 'all' }, { roles: ['ingest', 'process', 'api'] }],
    ['server URLs', ['--database-url', 'postgresql://u@db:5432/news', '--redis-url', 'redis://cache:6379/2'], { NEWSAGG_NATS_URL: 'nats://bus:4222' },
      { databaseUrl: 'postgresql://u@db:5432/news', redisUrl: 'redis://cache:6379/2', natsUrl: 'nats://bus:4222' }],
    ['allowlist of CIDRs and hosts', ['--fetch-allowlist', '127.0.0.1/32, ::1/128,feeds.example.org,*.example.net'], {},
      { fetchAllowlist: ['127.0.0.1/32', '::1/128', 'feeds.example.org', '*.example.net'] }],
    ['user agent derived from contact URL', ['--contact-url', 'https://ops.example.org/bot'], {}, { userAgent: 'newsagg/0.1 (+https://ops.example.org/bot)' }],
    ['explicit user agent wins', ['--contact-url', 'https://ops.example.org/bot'], { NEWSAGG_USER_AGENT: 'custom/1' }, { userAgent: 'custom/1' }],
    ['numbers', ['--workers', '3', '--rate-limit-rps', '2.5'], { NEWSAGG_DEDUP_WINDOW_HOURS: '24' }, { workers: 3, rateLimitRps: 2.5, dedupWindowHours: 24 }],
    ['metrics address', ['--metrics-listen', '10.0.0.5:9464'], {}, { metricsListen: { host: '10.0.0.5', port: 9464 } }],
    ['metrics address, IPv6', [], { NEWSAGG_METRICS_LISTEN: '[::1]:9464' }, { metricsListen: { host: '::1', port: 9464 } }],
    ['metrics address, host name, any port', ['--metrics-listen', 'localhost:0'], {}, { metricsListen: { host: 'localhost', port: 0 } }],
    ['websub limits', ['--websub-rate-limit-rps', '0.5', '--websub-rate-limit-burst', '5'], {}, { websubRateLimitRps: 0.5, websubRateLimitBurst: 5 }],
    ['readers defaults', [], {}, { trustProxy: [], apiTokens: [], retentionDays: 30, catalogue: undefined }],
    ['trusted proxies', ['--trust-proxy', '10.0.0.0/8, 192.0.2.1,fd00::/8'], {}, { trustProxy: ['10.0.0.0/8', '192.0.2.1', 'fd00::/8'] }],
    ['API tokens, repeats once', [], { NEWSAGG_API_TOKENS: 'client-a-0123456789abcdef,client-b-0123456789abcdef,client-a-0123456789abcdef' },
      { apiTokens: ['client-a-0123456789abcdef', 'client-b-0123456789abcdef'] }],
    ['retention and catalogue', ['--retention-days', '90', '--catalogue', 'uk'], {}, { retentionDays: 90, catalogue: 'uk' }],
  ];
  it.each(precedence)('%s', (_name, argv, env, want) => {
    expect(resolveConfig(argv, env)).toMatchObject(want);
  });

  const bad: [string, string[], Record<string, string>, RegExp][] = [
    ['unknown flag', ['--bogus'], {}, /^unknown option --bogus/],
    ['positional argument', ['extra'], {}, /^unexpected argument "extra"/],
    ['missing value', ['--port'], {}, /^option --port needs a value$/],
    ['empty value', ['--port='], {}, /^option --port needs a value$/],
    ['not a number', ['--port', 'abc'], {}, /^--port: expected a number \(got "abc"\)$/],
    ['out of range', [], { NEWSAGG_PORT: '70000' }, /^NEWSAGG_PORT: expected an integer from 0 to 65535/],
    ['zero workers', ['--workers', '0'], {}, /^--workers: expected an integer from 1/],
    ['bad database URL scheme', ['--database-url', 'mysql://db/x'], {}, /^--database-url: URL scheme must be postgres or postgresql, got "mysql"$/],
    ['not a URL', [], { NEWSAGG_REDIS_URL: 'localhost:6379' }, /^NEWSAGG_REDIS_URL: URL scheme must be redis or rediss/],
    ['garbage URL', ['--nats-url', 'not a url'], {}, /^--nats-url: not a valid URL$/],
    ['bad role', ['--roles', 'api,web'], {}, /^--roles: expected "all" or a comma list/],
    ['bad boolean', [], { NEWSAGG_DEMO: 'maybe' }, /^NEWSAGG_DEMO: expected true or false/],
    ['bad allowlist entry', ['--fetch-allowlist', '10.0.0.0/40'], {}, /^--fetch-allowlist: not an IP, CIDR or host name: "10\.0\.0\.0\/40"$/],
    ['bad log level', ['--log-level', 'loud'], {}, /^--log-level: /],
    ['short admin token', ['--admin-token', 'abc'], {}, /^--admin-token: must be at least 16 characters$/],
    ['value on a negated flag', ['--no-demo=1'], {}, /^unknown option --no-demo=1/],
    ['metrics address without a port', ['--metrics-listen', '127.0.0.1'], {}, /^--metrics-listen: expected host:port \(e\.g\. 127\.0\.0\.1:9464 or \[::1\]:9464\), got "127\.0\.0\.1"$/],
    ['metrics port out of range', ['--metrics-listen', '127.0.0.1:70000'], {}, /^--metrics-listen: expected host:port/],
    ['bare IPv6 metrics address', ['--metrics-listen', '::1:9464'], {}, /^--metrics-listen: expected host:port/],
    ['a host name as a trusted proxy', ['--trust-proxy', 'proxy.example.org'], {}, /^--trust-proxy: not an IP address or CIDR: "proxy\.example\.org"$/],
    ['a CIDR too wide', ['--trust-proxy', '10.0.0.0/33'], {}, /^--trust-proxy: not an IP address or CIDR/],
    ['a short API token', ['--api-tokens', 'short'], {}, /^--api-tokens: each token must be at least 16 printable characters without spaces$/],
    ['zero retention', ['--retention-days', '0'], {}, /^--retention-days: expected an integer from 1/],
    ['an unknown edition', ['--catalogue', 'mars'], {}, /^--catalogue: /],
  ];
  it.each(bad)('rejects %s with one ConfigError line', (_name, argv, env, want) => {
    let err: unknown;
    try {
      resolveConfig(argv, env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).code).toBe('CONFIG_INVALID');
    expect((err as Error).message).toMatch(want);
    expect((err as Error).message).not.toContain('\n');
  });

  it('never echoes secrets or credentials in errors', () => {
    for (const argv of [['--database-url', 'http://user:hunter2@db/x'], ['--admin-token', 'hunter2']]) {
      expect(() => resolveConfig(argv, {})).toThrow(ConfigError);
      try {
        resolveConfig(argv, {});
      } catch (e) {
        expect((e as Error).message).not.toContain('hunter2');
      }
    }
  });

  it('ignores unrelated NEWSAGG_ variables (e.g. NEWSAGG_DATA for benchmarks)', () => {
    expect(() => resolveConfig([], { NEWSAGG_DATA: '/somewhere', NEWSAGG_WHATEVER: 'x' })).not.toThrow();
  });
});
