import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { VHOST_DOMAIN } from './urls.js';

export type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
export type LookupFunction = (hostname: string, options: LookupOptions, callback: LookupCallback) => void;

/**
 * A `dns.lookup` replacement that resolves `*.sim.test` (the simulator's virtual hosts) to the
 * simulator's own address and everything else normally. Pass it as undici `connect: { lookup }`
 * or to `net.connect`.
 */
export function simLookup(address: string, family: 4 | 6): LookupFunction {
  const suffix = `.${VHOST_DOMAIN}`;
  return (hostname, options, callback) => {
    if (hostname.toLowerCase().endsWith(suffix)) {
      if (options.all) callback(null, [{ address, family }]);
      else callback(null, address, family);
      return;
    }
    (dnsLookup as unknown as LookupFunction)(hostname, options, callback);
  };
}
