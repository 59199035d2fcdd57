import { isIPv4, isIPv6, type BlockList } from 'node:net';
import { cidrList, listed } from '../../runtime/cidr.js';

/**
 * Pure IP address maths for the SSRF guard: parse, find an IPv4 address inside an IPv6 one, and say why an address must not
 * be fetched. Ranges are matched by `net.BlockList` (runtime/cidr.ts); parsing is kept strict: anything that does not parse as a
 * plain address is treated as blocked by the caller.
 */

/** An address as a bigint plus its family; IPv4-mapped IPv6 stays IPv6 here (see {@link embeddedIPv4}). */
export interface Ip { family: 4 | 6; value: bigint }

export function parseIp(text: string): Ip | null {
  const s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (isIPv4(s)) return { family: 4, value: BigInt(ipv4ToInt(s)) };
  const noZone = s.replace(/%.*$/, ''); // fe80::1%eth0: the zone does not change the range
  if (!isIPv6(noZone)) return null;
  return { family: 6, value: ipv6ToBigInt(noZone) };
}

function ipv4ToInt(s: string): number {
  return s.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
}

function ipv6ToBigInt(s: string): bigint {
  let text = s;
  // A trailing dotted quad (::ffff:1.2.3.4) becomes two hextets.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = ipv4ToInt(dotted[1]!);
    text = text.slice(0, dotted.index) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') as [string, string] : [text, undefined];
  const h = head ? head.split(':') : [];
  const t = tail === undefined ? [] : tail ? tail.split(':') : [];
  const fill = tail === undefined ? 0 : 8 - h.length - t.length;
  const groups = [...h, ...Array<string>(fill).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g, 16)), 0n);
}

/** The IPv4 address hidden inside an IPv6 one (mapped, compatible, NAT64, 6to4), if any. */
export function embeddedIPv4(ip: Ip): Ip | null {
  if (ip.family !== 6) return null;
  const low32 = ip.value & 0xffffffffn;
  if (ip.value >> 32n === 0xffffn) return { family: 4, value: low32 }; // ::ffff:a.b.c.d
  if (ip.value >> 32n === 0n && ip.value > 1n) return { family: 4, value: low32 }; // ::a.b.c.d (deprecated)
  if (ip.value >> 32n === 0x0064ff9b0000000000000000n) return { family: 4, value: low32 }; // 64:ff9b::/96
  if (ip.value >> 112n === 0x2002n) return { family: 4, value: (ip.value >> 80n) & 0xffffffffn }; // 6to4
  return null;
}

const RANGES: [string, string][] = [
  ['0.0.0.0/8', 'this network'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade NAT'], // also Alibaba's metadata 100.100.100.200
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local'], // 169.254.169.254: AWS/GCP/Azure metadata
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved'], // includes 255.255.255.255 broadcast
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  ['100::/64', 'discard'],
  ['2001::/32', 'Teredo'], // the client address is obfuscated inside: refuse outright
  ['2001:db8::/32', 'documentation'],
  ['fc00::/7', 'unique local'], // includes fd00:ec2::254, the AWS IPv6 metadata address
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local'],
  ['ff00::/8', 'multicast'],
];
const BLOCKED: [BlockList, string][] = RANGES.map(([c, why]) => [cidrList([c]), why]);

/** Why this address must not be fetched (e.g. 'loopback'), or null when it is a public address. */
export function blockedReason(ip: Ip): string | null {
  const inner = embeddedIPv4(ip);
  if (inner) {
    const why = blockedReason(inner);
    return why ? `${why} (inside IPv6)` : null;
  }
  const text = formatIp(ip);
  for (const [list, why] of BLOCKED) if (listed(list, text)) return why;
  return null;
}

/** Canonical text of an address, for messages. */
export function formatIp(ip: Ip): string {
  if (ip.family === 4) return [24n, 16n, 8n, 0n].map((s) => String((ip.value >> s) & 0xffn)).join('.');
  const groups: string[] = [];
  for (let s = 112n; s >= 0n; s -= 16n) groups.push(((ip.value >> s) & 0xffffn).toString(16));
  return groups.join(':');
}
