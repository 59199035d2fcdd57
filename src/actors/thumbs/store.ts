import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Thumbnails never change once written (content-addressed), so caches may keep them forever. */
export const THUMB_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const THUMB_CONTENT_TYPE = 'image/webp';

const HASH = /^[0-9a-f]{64}$/;

/** A stored thumbnail: its hash names it everywhere (file, URL path, article row). */
export interface StoredThumbnail {
  hash: string;
  /** `aa/<hash>.webp`, relative to the thumbs directory; also the URL path under /thumbs/ */
  relPath: string;
  path: string;
  bytes: number;
}

/**
 * Content-addressed thumbnail files under `<dataDir>/thumbs/<aa>/<sha256>.webp`. Writes go to a
 * temporary file in the same directory and are renamed into place, so a reader (the API, or a
 * node that crashed mid-write and restarted) never sees half a file; equal thumbnails from
 * different articles share one file.
 */
export class ThumbnailStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = join(dataDir, 'thumbs');
  }

  static hashOf(webp: Buffer): string {
    return createHash('sha256').update(webp).digest('hex');
  }

  static isHash(s: string): boolean {
    return HASH.test(s);
  }

  relPath(hash: string): string {
    return `${hash.slice(0, 2)}/${hash}.webp`;
  }

  /** Absolute path of a hash; throws on anything that is not a hash (no path tricks). */
  pathFor(hash: string): string {
    if (!HASH.test(hash)) throw new TypeError(`not a thumbnail hash: ${hash.slice(0, 80)}`);
    return join(this.root, hash.slice(0, 2), `${hash}.webp`);
  }

  async put(webp: Buffer): Promise<StoredThumbnail> {
    const hash = ThumbnailStore.hashOf(webp);
    const path = this.pathFor(hash);
    const stored = { hash, relPath: this.relPath(hash), path, bytes: webp.length };
    if (await exists(path)) return stored;
    await mkdir(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, webp, { flag: 'wx' });
      await rename(tmp, path);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
    return stored;
  }

  /** The WebP bytes, or null when absent or when `hash` is not a hash. */
  async get(hash: string): Promise<Buffer | null> {
    if (!HASH.test(hash)) return null;
    try {
      return await readFile(this.pathFor(hash));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async has(hash: string): Promise<boolean> {
    return HASH.test(hash) && exists(this.pathFor(hash));
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
