import type { Config } from '../config.js';
import type { PublisherMsg } from '../actors/publisher/actor.js';
import type { Component } from '../node.js';
import { ConfigError } from '../runtime/errors.js';
import { activityComponent } from './activity.js';
import { apiComponent } from './api.js';
import { breakingComponent } from './breaking.js';
import { catalogueComponent } from './catalogue.js';
import { clusterComponent } from './cluster.js';
import { demoComponent } from './demo.js';
import { fetcherComponent } from './fetcher.js';
import { ingestComponent } from './ingest.js';
import { maintenanceComponent } from './maintenance.js';
import { opmlComponent } from './opml.js';
import { pushComponent } from './push.js';
import { websubForwardComponent } from './websub-forward.js';
import { PUBLISHERS_CHANGED, publishersComponent, type PublishersComponent } from './publishers.js';
import type { ShardRoute } from '../runtime/shard-route.js';

/**
 * What a node runs, by role; any mix on one node, `all` is everything:
 * - `ingest`: the publisher actors (polling, WebSub, crawl), the catalogue/OPML/demo sources;
 *   they append to the ingest log and nothing else. In a cluster only the publishers of the
 *   publisher shards this node owns run here.
 * - `process`: consumes the ingest log and runs the pipeline (prepare, dedup, cluster, store,
 *   announce, thumbnails), with activity, breaking-news detection and maintenance following the
 *   stories it writes; in a cluster it may own the dedup and story shards.
 * - `api`: serves HTTP (feeds, search, admin, web UI, live) and sends push alerts.
 * Health and metrics routes are always there. Without `--nats-url` the ingest log is in-process,
 * so `ingest` and `process` must run together (an ingest-only node would fill a log nothing
 * reads, a process-only one read a log nothing fills). Order matters: the cluster opens first,
 * sources are registered before publisher actors start, shards are taken once every role has
 * attached (`cluster.go`), and everything before the server listens.
 */
export function componentsFor(config: Config): Component[] {
  const roles = new Set<string>(config.roles);
  if (!config.natsUrl && roles.has('ingest') !== roles.has('process')) {
    throw new ConfigError(
      roles.has('ingest')
        ? '--roles ingest without process needs --nats-url: without NATS the ingest log is in-process and nothing would consume it (add process, or give --nats-url and run process nodes)'
        : '--roles process without ingest needs --nats-url: without NATS the ingest log is in-process and nothing would fill it (add ingest, or give --nats-url)',
    );
  }
  if (config.demoUrl && !config.demo) throw new ConfigError('--demo-url needs --demo (it names the simulator the demo takes its publishers from)');
  // one safe fetcher for the node; the demo's simulator runs on loopback (or where --demo-url
  // says), so it may be reached there (and is ours: no crawl delay), and its hub calls this node back
  const simHost = config.demoUrl ? new URL(config.demoUrl).hostname.replace(/^\[|\]$/g, '') : null;
  const fetcher = fetcherComponent(config.demo ? { allowlist: ['127.0.0.1', ...(simHost && simHost !== '127.0.0.1' ? [simHost] : [])], crawlDelayMs: 0 } : {});
  const cluster = clusterComponent();
  const out: Component[] = [fetcher, cluster];
  let publishers: PublishersComponent | null = null;
  // messages for publisher actors from a node that runs none (breaking news speeds up polling)
  let publisherClient: ShardRoute | null = null;
  const tellPublisher = () => {
    if (publishers) return (id: string, msg: PublisherMsg) => publishers!.send(id, msg);
    const w = cluster.get();
    if (!w) return null;
    const r = (publisherClient ??= w.client('publisher'));
    return (id: string, msg: PublisherMsg) => r.deliver(`publisher/${id}`, msg);
  };
  if (roles.has('ingest') || roles.has('process')) {
    const ingest = ingestComponent({ fetcher, process: roles.has('process'), cluster });
    out.push(ingest);
    if (roles.has('process')) {
      // live story events and breaking-news detection follow the stories this node writes
      out.push(activityComponent({ ingest }), breakingComponent({ ingest, tellPublisher, cluster, hostMinIntervalMs: () => fetcher.get().crawlDelayMs }), maintenanceComponent());
    }
    if (roles.has('ingest')) {
      // the catalogue first: it only fills a database that has no publishers at all
      out.push(catalogueComponent(config.catalogue, !!config.opml || config.demo));
      if (config.opml) out.push(opmlComponent(config.opml));
      if (config.demo) out.push(demoComponent(config.demoUrl ? { url: config.demoUrl } : {}));
      publishers = publishersComponent({
        emit: (articles) => ingest.ingest(articles),
        fetcher,
        cluster,
        ...(config.demo ? { publicUrl: 'self' as const, firstPollSpreadMs: 20_000 } : {}),
      });
      out.push(publishers);
    }
  }
  if (roles.has('api')) {
    const p = publishers;
    // push alerts: subscriptions, the live-event listener and the deliverer, before the routes that serve them
    const push = pushComponent();
    out.push(
      push,
      apiComponent({
        fetcher,
        push,
        // a publisher added or removed reaches the node running (or about to run) its actor
        onPublishersChanged: (c: { added: string[]; removed: string[] }) => {
          const w = cluster.get();
          if (w) w.cluster.transport.publish(PUBLISHERS_CHANGED, c);
          else if (p) (p.added(c.added), p.removed(c.removed));
        },
        ownerOf: (id: string) => {
          const w = cluster.get();
          if (w) return w.ownerOfKey('publisher', id);
          return p ? config.nodeId : null;
        },
      }),
    );
  }
  // hub callbacks may reach a node without publishers: it forwards them to the owner (cluster only)
  if (!roles.has('ingest')) out.push(websubForwardComponent(cluster));
  out.push(cluster.go);
  return out;
}
