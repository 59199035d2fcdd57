import type { Config } from '../config.js';
import type { Component } from '../node.js';
import { apiComponent } from './api.js';
import { demoComponent } from './demo.js';
import { ingestComponent } from './ingest.js';
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
  const out: Component[] = [];
  let publishers: PublishersComponent | null = null;
  if (roles.has('ingest') || roles.has('process')) {
    // the demo's simulator runs on loopback: the fetchers may reach it, and its hub calls us back there
    const loopback = config.demo ? ['127.0.0.1'] : [];
    const ingest = ingestComponent(config.demo ? { allowlist: loopback, crawlDelayMs: 0 } : {});
    out.push(ingest);
    if (roles.has('ingest')) {
      if (config.opml) out.push(opmlComponent(config.opml));
      if (config.demo) out.push(demoComponent());
      publishers = publishersComponent({
        emit: (articles) => ingest.ingest(articles),
        ...(config.demo ? { allowlist: loopback, crawlDelayMs: 0, publicUrl: 'self' as const, firstPollSpreadMs: 20_000 } : {}),
      });
      out.push(publishers);
    }
  }
  if (roles.has('api')) {
    const p = publishers;
    out.push(
      apiComponent({
        ...(p ? { onPublishersChanged: (c: { added: string[]; removed: string[] }) => (p.added(c.added), p.removed(c.removed)) } : {}),
        ...(config.demo ? { allowlist: ['127.0.0.1'] } : {}),
      }),
    );
  }
  return out;
}
