import type { Metrics } from '../../runtime/metrics.js';
import type { SourceHealth } from './source-health.js';
import type { SkipReason } from './entries.js';
import type { EmitFn, FetchFn, ParseFn } from './types.js';

/**
 * Counters around a publisher's effects, so an operator sees what polling does without reading
 * every actor: `newsagg_publisher_polls_total{outcome}` (ok, not_modified, error),
 * `newsagg_publisher_parse_errors_total` and `newsagg_publisher_entries_total` (new entries put
 * into the ingest log, polled or pushed). A fetch aborted because its publisher moved to another
 * node is no outcome of the feed's and is not counted. With `health`, each poll's outcome is also
 * kept per feed (source-health.ts: does every source of this node fail?).
 */
export function countedEffects(metrics: Metrics, fx: { fetch: FetchFn; parse: ParseFn; emit: EmitFn }, health?: SourceHealth): { fetch: FetchFn; parse: ParseFn; emit: EmitFn } {
  const polls = metrics.counter('newsagg_publisher_polls_total', 'Feed polls by outcome (ok, not_modified, error)', ['outcome']);
  const parseErrors = metrics.counter('newsagg_publisher_parse_errors_total', 'Feed documents (polled or pushed) that could not be parsed');
  const entries = metrics.counter('newsagg_publisher_entries_total', 'New feed entries put into the ingest log');
  return {
    async fetch(req) {
      try {
        const r = await fx.fetch(req);
        polls.inc({ outcome: r.notModified || r.status === 304 ? 'not_modified' : 'ok' });
        health?.polled(req.url, null);
        return r;
      } catch (err) {
        if (!req.signal?.aborted) {
          polls.inc({ outcome: 'error' });
          health?.polled(req.url, err);
        }
        throw err;
      }
    },
    async parse(body, opts) {
      try {
        return await fx.parse(body, opts);
      } catch (err) {
        parseErrors.inc();
        throw err;
      }
    },
    async emit(articles) {
      await fx.emit(articles);
      entries.inc(articles.length);
    },
  };
}

/**
 * `newsagg_entries_skipped_total{reason}`: feed entries left out on purpose: `retention`, new ones
 * published before the retention period (counted once); `document_limit`, those past the 8,192
 * newest of one document (not remembered, so counted each time such a document is read).
 */
export function skippedCounter(metrics: Metrics): (reason: SkipReason, n: number) => void {
  const c = metrics.counter(
    'newsagg_entries_skipped_total',
    'Feed entries left out on purpose, by reason (retention: new, published before the retention period; document_limit: past the newest 8192 of a document, at each read)',
    ['reason'],
  );
  return (reason, n) => c.inc({ reason }, n);
}
