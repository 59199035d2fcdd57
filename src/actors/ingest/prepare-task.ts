import { warmUpEnrichment } from '../enrich/enrich.js';
import { prepareBatch } from './prepare.js';
import type { PreparedArticle, RawArticle, RejectedArticle } from './types.js';

/** Shared-pool task module: the CPU stage of ingest for one batch. */
warmUpEnrichment();

export interface PrepareTask {
  items: RawArticle[];
  now: number;
  keepIds?: boolean;
}

export default function run(task: PrepareTask): { ok: PreparedArticle[]; rejected: RejectedArticle[] } {
  return prepareBatch(task.items, task.now, { keepIds: task.keepIds === true });
}
