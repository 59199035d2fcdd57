import { describe, expect, it } from 'vitest';
import { blockedReason, embeddedIPv4, formatIp, parseIp } from '../../src/actors/fetch/ip.js';
import { cidrList, listed, parseCidr } from '../../src/runtime/cidr.js';

const reason = (a: string) => blockedReason(parseIp(a)!);

describe('blockedReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['0.0.0.0', 'this network'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.100.100.200', 'carrier-grade NAT'],
    ['169.254.169.254', 'link-local'],
    ['224.0.0.251', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00:ec2::254', 'unique local'],
    ['fc12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback (inside IPv6)'],
    ['::ffff:7f00:1', 'loopback (inside IPv6)'],
    ['::ffff:169.254.169.254', 'link-local (inside IPv6)'],
    ['64:ff9b::10.0.0.1', 'private (inside IPv6)'],
    ['2002:a9fe:a9fe::1', 'link-local (inside IPv6)'],
    ['[::1]', 'loopback'],
  ])('%s is blocked (%s)', (addr, why) => {
    expect(reason(addr)).toBe(why);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:0808:0808::1'])(
    '%s is public',
    (addr) => {
      expect(reason(addr)).toBeNull();
    },
  );

  it('does not parse hostnames or odd forms', () => {
    for (const s of ['localhost', '127.1', '0x7f.0.0.1', '1.2.3.4.5', ':::1', '']) expect(parseIp(s)).toBeNull();
  });
});

describe('CIDRs', () => {
  it.each([
    ['127.0.0.0/8', '127.9.9.9', true],
    ['127.0.0.0/8', '128.0.0.1', false],
    ['10.0.0.5', '10.0.0.5', true],
    ['10.0.0.5', '10.0.0.6', false],
    ['0.0.0.0/0', '8.8.8.8', true],
    ['fc00::/7', 'fdff::1', true],
    ['fc00::/7', 'fe00::1', false],
    ['::1/128', '::1', true],
    ['127.0.0.0/8', '::1', false], // families never match each other
  ] as const)('%s contains %s: %s', (cidr, addr, expected) => {
    expect(listed(cidrList([cidr]), addr)).toBe(expected);
  });

  it('rejects bad prefixes', () => {
    for (const c of ['10.0.0.0/33', '::/129', '10.0.0.0/x', 'example.com/8']) expect(parseCidr(c)).toBeNull();
  });

  it('extracts and formats embedded IPv4', () => {
    expect(formatIp(embeddedIPv4(parseIp('::ffff:192.0.2.7')!)!)).toBe('192.0.2.7');
    expect(embeddedIPv4(parseIp('2606:4700::1')!)).toBeNull();
    expect(formatIp(parseIp('2001:db8::1')!)).toBe('2001:db8:0:0:0:0:0:1');
  });
});
