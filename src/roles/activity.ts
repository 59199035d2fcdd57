import { ActivityLog } from '../actors/activity/report.js';
import type { Component, Node } from '../node.js';
import type { IngestComponent } from './ingest.js';

/** The ingest activity line once a minute (see actors/activity/report.ts), with a stories counter fed by ingest. */
export function activityComponent(opts: { ingest: IngestComponent; everyMs?: number }): Component {
  let report: ActivityLog | null = null;
  return {
    name: 'activity',
    async start(node: Node) {
      const stories = node.metrics.counter('newsagg_stories_written_total', 'Stories written by ingest (new or updated)');
      opts.ingest.onStories((s) => stories.inc(s.length));
      report = new ActivityLog({ metrics: node.metrics, log: node.log, ...(opts.everyMs !== undefined ? { everyMs: opts.everyMs } : {}) });
      await report.start();
    },
    stop() {
      report?.stop();
    },
  };
}
