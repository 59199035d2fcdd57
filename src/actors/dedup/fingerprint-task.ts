import { fingerprint, type Fingerprint } from './fingerprint.js';

/**
 * Piscina task module: fingerprints a batch in a worker so the main thread stays free for I/O.
 * Use as `new Piscina({ filename: <this file> })` and `pool.run({ items })`. Batches, because a
 * round trip costs ~50 µs and a batch of 100+ items almost nothing per item.
 */
export interface FingerprintTaskItem {
  title: string;
  snippet?: string | null;
  text?: string | null;
}

export interface FingerprintTask {
  items: FingerprintTaskItem[];
}

export default function run(task: FingerprintTask): Fingerprint[] {
  const out: Fingerprint[] = new Array(task.items.length);
  for (let i = 0; i < task.items.length; i++) {
    const it = task.items[i]!;
    out[i] = fingerprint(it.title, it.snippet, it.text);
  }
  return out;
}
