/**
 * A tiny deterministic PRNG (sfc32) for the simulator. Everything the simulator invents is drawn
 * from streams forked by label from one seed, so adding a draw in one place (say, item text)
 * never shifts another (say, the publisher catalogue).
 */

import { mixedHash } from '../runtime/hash.js';

/** 32-bit FNV-1a over a string, finished with a murmur-style mix so near strings spread apart. */
export const hashString = mixedHash;

/** A seeded random stream. Not for cryptography. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number) {
    const s = String(seed);
    this.a = hashString(`a:${s}`);
    this.b = hashString(`b:${s}`);
    this.c = hashString(`c:${s}`);
    this.d = hashString(`d:${s}`) | 1;
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** The next uniform 32-bit unsigned integer (sfc32). */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** Uniform integer in [lo, hi] inclusive. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  /** Index drawn with probability proportional to `weights[i]`. */
  weighted(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let r = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      r -= weights[i] as number;
      if (r < 0) return i;
    }
    return weights.length - 1;
  }

  /** Exponentially distributed with the given mean (Poisson inter-arrival times). */
  exp(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** `k` distinct items in random order (partial Fisher–Yates on a copy). */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = items.slice();
    const n = Math.min(k, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + this.int(copy.length - i);
      const tmp = copy[i] as T;
      copy[i] = copy[j] as T;
      copy[j] = tmp;
    }
    return copy.slice(0, n);
  }

  /** An independent stream named by `label`, fixed by this stream's seed and the label only. */
  static fork(seed: string | number, ...labels: (string | number)[]): Rng {
    return new Rng(`${seed}|${labels.join('|')}`);
  }
}
