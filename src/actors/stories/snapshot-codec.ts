import { deserialize, serialize } from 'node:v8';
import type { ClustererSnapshot } from './clusterer.js';

/**
 * A clusterer snapshot as bytes and back: the structured clone (`node:v8`) keeps typed arrays,
 * shared vectors (a story's first exemplar is its centroid) and maps, at C++ speed. Stored in
 * chunks (`story_snapshot_chunks`): a single value this large would not fit a string on its way
 * to PostgreSQL.
 */
export const SNAPSHOT_CHUNK_BYTES = 8 << 20;

export function encodeSnapshot(s: ClustererSnapshot): Buffer[] {
  const all = serialize(s);
  const chunks: Buffer[] = [];
  for (let at = 0; at < all.length; at += SNAPSHOT_CHUNK_BYTES) chunks.push(all.subarray(at, Math.min(all.length, at + SNAPSHOT_CHUNK_BYTES)));
  return chunks;
}

export function decodeSnapshot(chunks: readonly Uint8Array[]): ClustererSnapshot {
  const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  return deserialize(all) as ClustererSnapshot;
}
