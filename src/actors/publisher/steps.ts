import type { RawArticle } from './types.js';

/**
 * The new articles of one document, in steps: a feed of 150 new entries (a node back from
 * downtime, a feed that publishes in bursts) goes into the ingest log 100 at a time, the next step
 * once the one before is stored, instead of its first 100 for good. The step size bounds the work
 * one feed puts on ingest at once, never what is stored. Pure.
 */
export interface PollStep {
  articles: RawArticle[];
  /** (key hash, fingerprint) of each article's entry: recorded as seen once the step is stored */
  marks: number[];
  /** the poll's validators, on its last step only: they move once everything before is stored */
  validators: { etag: string | null; lastModified: string | null } | null;
  /** from a poll (the next poll waits for it), or from a WebSub push */
  poll: boolean;
}

/** Default step size (`--max-entries-per-poll`). */
export const DEFAULT_STEP = 100;

/**
 * Splits a document's new articles (with their marks, two per article) into steps of at most
 * `size`. A document that fits is one step in document order; a larger one goes newest first, so
 * the latest news is stored first. Only the last step carries the validators.
 */
export function intoSteps(
  articles: readonly RawArticle[],
  marks: readonly number[],
  size: number,
  from: { validators: PollStep['validators']; poll: boolean },
): PollStep[] {
  const n = Math.max(1, Math.floor(size));
  if (articles.length <= n) return [{ articles: [...articles], marks: [...marks], validators: from.validators, poll: from.poll }];
  // ISO instants of one format compare as strings; a stable sort keeps document order among equals
  const at = articles.map((a) => a.published_at ?? '');
  const order = Array.from(articles.keys()).sort((a, b) => (at[a]! < at[b]! ? 1 : at[a]! > at[b]! ? -1 : 0));
  const steps: PollStep[] = [];
  for (let i = 0; i < order.length; i += n) {
    const picked = order.slice(i, i + n);
    steps.push({
      articles: picked.map((k) => articles[k]!),
      marks: picked.flatMap((k) => [marks[2 * k]!, marks[2 * k + 1]!]),
      validators: null,
      poll: from.poll,
    });
  }
  steps[steps.length - 1]!.validators = from.validators;
  return steps;
}
