import type { BlockList } from 'node:net';
import { isIP } from 'node:net';
import { cidrList, listed } from '../runtime/cidr.js';

/**
 * The client's address behind reverse proxies (`--trust-proxy CIDRs`). Only a request whose
 * socket peer is a trusted proxy has its address taken from `X-Forwarded-For`: the right-most
 * entry that is not itself a trusted proxy (each proxy appends the address it saw, so entries
 * left of the first untrusted one were written by the client and prove nothing). A peer outside
 * the list, or no list at all, is the client itself.
 */
export class TrustedProxies {
  private readonly list: BlockList;

  /** `entries`: addresses or CIDRs (`10.0.0.0/8`, `::1`, `fd00::/8`); throws TypeError on anything else. */
  constructor(entries: readonly string[]) {
    this.list = cidrList(entries);
  }

  /** True when `address` (any textual form) is a trusted proxy. */
  trusts(address: string): boolean {
    return listed(this.list, address);
  }

  /** The client address for a request from socket peer `peer` carrying `forwardedFor`. */
  clientOf(peer: string, forwardedFor: string | undefined): string {
    const self = normalizeAddress(peer);
    if (!forwardedFor || !this.trusts(self)) return self;
    const hops = forwardedFor.split(',');
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = normalizeAddress(stripPort(hops[i]!.trim()));
      // garbage where an address should be: a proxy did not write it, so it proves nothing
      if (isIP(hop) === 0) return self;
      if (!this.trusts(hop)) return hop;
    }
    // every hop is a trusted proxy: the left-most is as close to the client as we can tell
    return normalizeAddress(stripPort(hops[0]!.trim()));
  }
}

/** `203.0.113.7:5123` and `[2001:db8::1]:443` (some proxies add ports) → the bare address. */
function stripPort(s: string): string {
  if (s.startsWith('[')) {
    const end = s.indexOf(']');
    return end > 0 ? s.slice(1, end) : s;
  }
  const colon = s.indexOf(':');
  return colon > 0 && colon === s.lastIndexOf(':') ? s.slice(0, colon) : s;
}

const MAPPED_V4 = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/**
 * One spelling per address, so a rate-limit bucket or a log line does not depend on how the
 * socket layer wrote it: uWS spells IPv6 peers in full (`0000:...:ffff:7f00:0001`); IPv4-mapped
 * addresses become dotted IPv4, other IPv6 the compressed lower-case form.
 */
export function normalizeAddress(address: string): string {
  if (!address.includes(':') || isIP(address) !== 6) return address;
  let a: string;
  try {
    a = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return address;
  }
  const m = MAPPED_V4.exec(a);
  if (!m) return a;
  const hi = parseInt(m[1]!, 16);
  const lo = parseInt(m[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}
