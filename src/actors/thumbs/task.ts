import type { TaskPool } from '../../runtime/task-pool.js';
import { makeThumbnail, type ThumbnailOptions, type ThumbnailResult } from './thumbnail.js';

/**
 * Piscina task module: image decoding is CPU work, so it runs in the shared task pool and the
 * main thread stays free for I/O and the API. `makeThumbnail` never throws, so the result
 * crosses the thread boundary as plain data; Buffers arrive as Uint8Array and are re-wrapped.
 */

export interface ThumbnailTask {
  bytes: Uint8Array;
  options?: ThumbnailOptions;
}

export default async function thumbnailTask(task: ThumbnailTask): Promise<ThumbnailResult> {
  const bytes = Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength);
  return makeThumbnail(bytes, task.options ?? {});
}

/** A `make` for `thumbnailFor` that runs the decode on `pool`. */
export function pooledMakeThumbnail(pool: TaskPool): (bytes: Buffer, options: ThumbnailOptions) => Promise<ThumbnailResult> {
  const moduleUrl = new URL(import.meta.url.endsWith('.ts') ? './task.ts' : './task.js', import.meta.url).href;
  return async (bytes, options) => {
    // structured clone copies a view's whole backing ArrayBuffer: send only our bytes
    const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
    const r = await pool.run<ThumbnailTask, ThumbnailResult>(moduleUrl, { bytes: own, options });
    return r.ok ? { ...r, webp: Buffer.from(r.webp.buffer, r.webp.byteOffset, r.webp.byteLength) } : r;
  };
}
