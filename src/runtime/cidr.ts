import { BlockList, isIP } from 'node:net';

/**
 * Address ranges, in one place: an address or CIDR in text (`10.0.0.0/8`, `::1`, `fd00::/8`)
 * parsed once, matched by node's `net.BlockList`. Used by `--trust-proxy`, the fetcher's SSRF
 * ranges and its allowlist.
 */

export interface CidrText { address: string; prefix: number; type: 'ipv4' | 'ipv6' }

/** `10.0.0.0/8`, `fc00::/7` or a bare address (a /32 or /128); null for anything else. */
export function parseCidr(text: string): CidrText | null {
  const [addr, bits, ...rest] = text.trim().split('/');
  const v = addr === undefined ? 0 : isIP(addr);
  if (v === 0 || rest.length > 0) return null;
  const max = v === 4 ? 32 : 128;
  if (bits !== undefined && !/^\d{1,3}$/.test(bits)) return null;
  const prefix = bits === undefined ? max : Number(bits);
  if (prefix > max) return null;
  return { address: addr!, prefix, type: v === 4 ? 'ipv4' : 'ipv6' };
}

/** A BlockList of `entries`; throws TypeError naming the first entry that is not an address or CIDR. */
export function cidrList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const e of entries) {
    const c = parseCidr(e);
    if (!c) throw new TypeError(`not an IP address or CIDR: "${e}"`);
    list.addSubnet(c.address, c.prefix, c.type);
  }
  return list;
}

/** True when `address` (any textual form node accepts) is in `list`. */
export function listed(list: BlockList, address: string): boolean {
  const v = isIP(address);
  return v !== 0 && list.check(address, v === 4 ? 'ipv4' : 'ipv6');
}
