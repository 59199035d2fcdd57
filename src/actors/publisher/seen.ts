import { fnv1a as fnv1aHash } from '../../runtime/hash.js';
import type { FeedEntry } from './types.js';

/**
 * Which entries a publisher has already emitted, in a few hundred bytes: a bounded ring of
 * (key hash, content fingerprint) pairs of 32-bit FNV-1a hashes in one Uint32Array, laid out as
 * `[head, count, key0, fp0, key1, fp1, ...]`. An entry is old when its key (guid, else link) or
 * its fingerprint (normalised title + start of summary) was seen, so a republished entry with a
 * fresh guid is not new. The ring grows to twice the largest document seen (so entries still in
 * the feed are never evicted) up to `MAX_SEEN`: a typical feed of 20 to 100 entries keeps a ring
 * of a few hundred bytes to 2 KB, and only a document of thousands of entries grows it further
 * (at most 128 KB). A 32-bit collision makes a new entry look old with odds of about
 * capacity / 2^32 per entry, which is accepted for the memory it saves.
 */
export type SeenRing = Uint32Array;

export const MIN_SEEN = 32;
export const MAX_SEEN = 16_384;
const HEADER = 2;

export function createSeen(capacity = MIN_SEEN): SeenRing {
  return new Uint32Array(HEADER + 2 * clampCapacity(capacity));
}

function clampCapacity(n: number): number {
  return Math.min(MAX_SEEN, Math.max(MIN_SEEN, Math.ceil(n)));
}

export function seenCapacity(ring: SeenRing): number {
  return (ring.length - HEADER) / 2;
}

export function seenCount(ring: SeenRing): number {
  return ring[1]!;
}

/** 32-bit FNV-1a over UTF-16 code units; never 0 (0 marks "no value"). */
export function seenHash(s: string): number {
  return fnv1aHash(s) || 1;
}

function normalise(s: string | null | undefined): string {
  if (!s) return '';
  return s.toLowerCase().replace(/<[^>]*>/g, ' ').replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/** The identity of an entry: guid/id, else link; 0 when it has neither. */
export function entryKeyHash(e: Pick<FeedEntry, 'id' | 'link'>): number {
  const key = (e.id ?? '').trim() || (e.link ?? '').trim();
  return key ? seenHash(key) : 0;
}

/** The content fingerprint: normalised title and the first 200 characters of the summary; 0 when both are empty. */
export function entryFingerprint(e: Pick<FeedEntry, 'title' | 'summary' | 'content'>): number {
  const title = normalise(e.title);
  const body = normalise(e.summary ?? e.content).slice(0, 200);
  if (!title && !body) return 0;
  return seenHash(`${title}\u0000${body}`);
}

export function seenHas(ring: SeenRing, keyHash: number, fp: number): boolean {
  const end = HEADER + 2 * Math.min(ring[1]!, seenCapacity(ring));
  for (let i = HEADER; i < end; i += 2) {
    if ((keyHash !== 0 && ring[i] === keyHash) || (fp !== 0 && ring[i + 1] === fp)) return true;
  }
  return false;
}

/** Rings above this capacity are looked up through sets built once per document, not by scanning. */
const SCAN_MAX = 512;

/**
 * `seenHas` for many lookups against one ring that does not change meanwhile (one document):
 * a large ring is indexed once instead of scanned per entry.
 */
export function seenLookup(ring: SeenRing): (keyHash: number, fp: number) => boolean {
  if (seenCapacity(ring) <= SCAN_MAX) return (keyHash, fp) => seenHas(ring, keyHash, fp);
  const keys = new Set<number>();
  const fps = new Set<number>();
  const end = HEADER + 2 * Math.min(ring[1]!, seenCapacity(ring));
  for (let i = HEADER; i < end; i += 2) {
    if (ring[i] !== 0) keys.add(ring[i]!);
    if (ring[i + 1] !== 0) fps.add(ring[i + 1]!);
  }
  return (keyHash, fp) => (keyHash !== 0 && keys.has(keyHash)) || (fp !== 0 && fps.has(fp));
}

/** Records an entry; returns the ring (the same one unless it had to grow). */
export function seenAdd(ring: SeenRing, keyHash: number, fp: number): SeenRing {
  const cap = seenCapacity(ring);
  const head = ring[0]!;
  ring[HEADER + 2 * head] = keyHash;
  ring[HEADER + 2 * head + 1] = fp;
  ring[0] = (head + 1) % cap;
  ring[1] = Math.min(cap, ring[1]! + 1);
  return ring;
}

/** Grows the ring to hold at least `entries` items twice over, keeping every recorded pair. */
export function ensureSeenCapacity(ring: SeenRing, entries: number): SeenRing {
  const want = clampCapacity(2 * entries);
  const cap = seenCapacity(ring);
  if (want <= cap) return ring;
  const grown = createSeen(want);
  const count = Math.min(ring[1]!, cap);
  // copy oldest first so the ring order (and thus eviction order) is preserved
  const start = count < cap ? 0 : ring[0]!;
  for (let k = 0; k < count; k++) {
    const i = HEADER + 2 * ((start + k) % cap);
    seenAdd(grown, ring[i]!, ring[i + 1]!);
  }
  return grown;
}

export function seenToBase64(ring: SeenRing): string {
  return Buffer.from(ring.buffer, ring.byteOffset, ring.byteLength).toString('base64');
}

/** Restores a persisted ring; anything malformed gives an empty ring (entries may then be emitted again, never lost). */
export function seenFromBase64(s: string | null | undefined): SeenRing {
  if (!s) return createSeen();
  const buf = Buffer.from(s, 'base64');
  if (buf.length < 4 * (HEADER + 2 * MIN_SEEN) || buf.length % 8 !== 0) return createSeen();
  const ring = new Uint32Array(buf.length / 4);
  new Uint8Array(ring.buffer).set(buf);
  const cap = seenCapacity(ring);
  if (ring[0]! >= cap || ring[1]! > cap || cap > MAX_SEEN) return createSeen();
  return ring;
}
