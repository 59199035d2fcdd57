import { createHash } from 'node:crypto';
import { encode } from '@msgpack/msgpack';

/**
 * Packs for the JetStream ingest log: several items in one message, because a JetStream publish
 * with its acknowledgement costs the client ~60 µs of CPU whatever the size, while packing 64
 * items costs about as much as one. A pack is a msgpack array of the items, built from each
 * item's own encoding (an array header followed by the encoded items is valid msgpack), so the
 * size of every pack is known before it is sent and stays under the server's max payload.
 */
export interface Pack {
  bytes: Uint8Array;
  /** indexes of the packed items in the appended list */
  from: number;
  count: number;
  /** stable for the same items in the same order: `Nats-Msg-Id`, so a retried append stores nothing twice */
  id: string;
}

/** msgpack array header for `n` elements */
function arrayHeader(n: number): Uint8Array {
  if (n < 16) return Uint8Array.of(0x90 | n);
  if (n < 0x10000) return Uint8Array.of(0xdc, n >> 8, n & 0xff);
  return Uint8Array.of(0xdd, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff);
}

/**
 * Splits `items` into packs of at most `maxItems` items and `maxBytes` bytes; an item larger than
 * `maxBytes` gets a pack of its own (the caller refuses it if it exceeds the server's limit). Pure.
 */
export function packItems<T>(items: readonly T[], idOf: (item: T) => string, maxItems: number, maxBytes: number): Pack[] {
  const encoded = items.map((it) => encode(it));
  const packs: Pack[] = [];
  let from = 0;
  while (from < items.length) {
    let size = 5;
    let to = from;
    while (to < items.length && to - from < maxItems && (to === from || size + encoded[to]!.length <= maxBytes)) {
      size += encoded[to]!.length;
      to++;
    }
    const header = arrayHeader(to - from);
    const bytes = new Uint8Array(header.length + size - 5);
    bytes.set(header, 0);
    let o = header.length;
    const h = createHash('sha256');
    for (let i = from; i < to; i++) {
      bytes.set(encoded[i]!, o);
      o += encoded[i]!.length;
      h.update(idOf(items[i]!)).update('\n');
    }
    packs.push({ bytes, from, count: to - from, id: `p${to - from}-${h.digest('base64url').slice(0, 32)}` });
    from = to;
  }
  return packs;
}
