import type { Config } from '../config.js';
import type { Component } from '../node.js';
import { activityComponent } from './activity.js';
import { apiComponent } from './api.js';
import { breakingComponent } from './breaking.js';
import { catalogueComponent } from './catalogue.js';
import { demoComponent } from './demo.js';
import { fetcherComponent } from './fetcher.js';
import { ingestComponent } from './ingest.js';
import { maintenanceComponent } from './maintenance.js';
import { opmlComponent } from './opml.js';
import { publishersComponent, type PublishersComponent } from './publishers.js';

/**
 * What a node runs, by role: `ingest` runs the publisher actors and the ingest log, `process`
 * the pipeline behind it (one node holds both until the scale-out issue splits them), `api`
 * serves HTTP; `all` is everything. Health and metrics routes are always there. Order matters:
 * sources are registered before publisher actors start, and everything before the server listens.
 */
export function componentsFor(config: Config): Component[] {
  const roles = new Set<string>(config.roles);
  // one safe fetcher for the node; the demo's simulator runs on loopback, so it may be reached
  // there (and is ours: no crawl delay), and its hub calls this node back there
  const fetcher = fetcherComponent(config.demo ? { allowlist: ['127.0.0.1'], crawlDelayMs: 0 } : {});
  const out: Component[] = [fetcher];
  let publishers: PublishersComponent | null = null;
  if (roles.has('ingest') || roles.has('process')) {
    const ingest = ingestComponent({ fetcher });
    // live story events and breaking-news detection follow the stories this node writes
    out.push(ingest, activityComponent({ ingest }), breakingComponent({ ingest }), maintenanceComponent());
    if (roles.has('ingest')) {
      // the catalogue first: it only fills a database that has no publishers at all
      out.push(catalogueComponent(config.catalogue, !!config.opml || config.demo));
      if (config.opml) out.push(opmlComponent(config.opml));
      if (config.demo) out.push(demoComponent());
      publishers = publishersComponent({
        emit: (articles) => ingest.ingest(articles),
        fetcher,
        ...(config.demo ? { publicUrl: 'self' as const, firstPollSpreadMs: 20_000 } : {}),
      });
      out.push(publishers);
    }
  }
  if (roles.has('api')) {
    const p = publishers;
    out.push(
      apiComponent({
        fetcher,
        ...(p ? { onPublishersChanged: (c: { added: string[]; removed: string[] }) => (p.added(c.added), p.removed(c.removed)) } : {}),
      }),
    );
  }
  return out;
}
