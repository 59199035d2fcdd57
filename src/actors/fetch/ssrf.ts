import { lookup as dnsLookup } from 'node:dns/promises';
import { buildConnector } from 'undici';
import { FetchError, toFetchError } from './errors.js';
import { BlockList } from 'node:net';
import { parseCidr, listed } from '../../runtime/cidr.js';
import { blockedReason, formatIp, parseIp } from './ip.js';

export type LookupFn = (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;

/** Hostnames of cloud metadata services, refused before any DNS is asked. */
const METADATA_NAMES = new Set([
  'metadata', 'metadata.google.internal', 'metadata.goog', 'metadata.azure.com',
  'instance-data', 'instance-data.ec2.internal', 'metadata.tencentyun.com',
]);

const defaultLookup: LookupFn = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));

/**
 * The SSRF guard. It decides on the address that is actually connected to: the undici Agent's
 * connector asks {@link SsrfGuard.resolve} for every new socket, so every redirect hop and the
 * robots.txt fetch pass through it and DNS rebinding between "check" and "connect" is impossible.
 * The allowlist (CIDRs, addresses, hostnames, '*.suffix') is how tests and the simulator reach
 * 127.0.0.1.
 */
export class SsrfGuard {
  private readonly cidrs = new BlockList();
  private readonly names = new Set<string>();
  private readonly suffixes: string[] = [];

  constructor(allowlist: string[] = [], private readonly lookup: LookupFn = defaultLookup, private readonly lookupTimeoutMs = 10_000) {
    for (const entry of allowlist) {
      const e = entry.trim().toLowerCase();
      const cidr = parseCidr(e);
      if (cidr) this.cidrs.addSubnet(cidr.address, cidr.prefix, cidr.type);
      else if (e.startsWith('*.')) this.suffixes.push(e.slice(1));
      else if (e) this.names.add(e);
    }
  }

  private nameAllowed(host: string): boolean {
    return this.names.has(host) || this.suffixes.some((s) => host.endsWith(s));
  }

  /** Refuses names that need no DNS to be known bad (metadata services). Called per hop before connecting. */
  checkHostname(hostname: string, url: string): void {
    const host = hostname.toLowerCase().replace(/\.$/, '');
    if (this.nameAllowed(host)) return;
    if (METADATA_NAMES.has(host)) throw new FetchError('SSRF_BLOCKED', `${host} is a cloud metadata service`, { url });
    const ip = parseIp(host);
    if (ip) this.checkIp(ip, host, url);
  }

  private checkIp(ip: ReturnType<typeof parseIp> & object, host: string, url: string): void {
    if (listed(this.cidrs, formatIp(ip))) return;
    const why = blockedReason(ip);
    if (!why) return;
    const addr = formatIp(ip);
    throw new FetchError('SSRF_BLOCKED', parseIp(host) ? `address ${host} is ${why}` : `${host} resolves to ${addr} (${why})`, { url });
  }

  /** The address to connect to for `hostname`: the first resolved one that is permitted. */
  async resolve(hostname: string): Promise<{ address: string; family: 4 | 6 }> {
    const host = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
    const url = `//${hostname}`;
    this.checkHostname(host, url);
    const literal = parseIp(host);
    if (literal) return { address: host, family: literal.family };
    const addresses = await this.timedLookup(host);
    if (addresses.length === 0) throw new FetchError('FETCH_NETWORK', `${host} has no addresses`, { url });
    if (this.nameAllowed(host)) return addresses[0]!;
    let firstError: FetchError | null = null;
    for (const a of addresses) {
      const ip = parseIp(a.address);
      if (!ip) continue;
      try {
        this.checkIp(ip, host, url);
        return { address: a.address, family: ip.family };
      } catch (err) {
        firstError ??= err as FetchError;
      }
    }
    throw firstError ?? new FetchError('SSRF_BLOCKED', `${host} resolved to no usable address`, { url });
  }

  private async timedLookup(host: string): Promise<{ address: string; family: 4 | 6 }[]> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new FetchError('FETCH_TIMEOUT', `DNS lookup of ${host} timed out`, { url: `//${host}` })), this.lookupTimeoutMs);
    });
    try {
      return await Promise.race([this.lookup(host), timeout]);
    } catch (err) {
      throw toFetchError(err, `//${host}`);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * An undici connector that connects only to guarded addresses. The TLS server name stays the
   * original hostname (undici derives it from `host`), so certificates are still checked against it.
   */
  connector(options: buildConnector.BuildOptions = {}): buildConnector.connector {
    const connect = buildConnector(options);
    return (opts, callback) => {
      this.resolve(opts.hostname).then(
        ({ address }) => connect({ ...opts, hostname: address }, callback),
        (err: unknown) => callback(err as Error, null),
      );
    };
  }
}
