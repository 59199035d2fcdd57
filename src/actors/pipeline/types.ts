import type { Fingerprint } from '../dedup/fingerprint.js';
import type { RawArticle } from './raw-article.js';

/** One output line of `newsagg process` (DESIGN §6); fields later stages fill start as null. */
export interface ProcessOutput {
  id: string;
  url: string;
  duplicate_of: string | null;
  story_id: string | null;
  category: string | null;
  region: string | null;
  language: string | null;
  entities: unknown[] | null;
  simhash: string;
}

/** An article on its way through the stages; stages read what earlier ones set and fill `out`. */
export interface PipelineItem {
  /** 1-based input line number */
  line: number;
  raw: RawArticle;
  publishedAt: number;
  canonicalUrl: string;
  urlHash: string;
  fp: Fingerprint;
  /** set by the dedup stage: the URL was seen before, so this is an update of that article */
  update: boolean;
  /** set by the enrichment stage: places the article is about */
  places?: string[];
  out: ProcessOutput;
}

/**
 * A processing stage. Stages run in order over each batch, which is in input order; a stage
 * must keep per-article decisions in that order (it is what makes `process` deterministic).
 */
export interface Stage {
  readonly name: string;
  run(items: PipelineItem[]): void | Promise<void>;
}

export type LineResult =
  | { line: number; output: ProcessOutput }
  | { line: number; error: { code: string; message: string } };
