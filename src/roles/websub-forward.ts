import type { PublisherMsg, PublisherReply } from '../actors/publisher/actor.js';
import { WebSubIntents } from '../actors/publisher/websub-intents.js';
import { TrustedProxies } from '../api/client-address.js';
import { registerWebSubRoutes } from '../api/routes/websub.js';
import { AskTimeoutError, describeError } from '../runtime/errors.js';
import type { Component, Node } from '../node.js';
import { askVia, type ClusterComponent } from './cluster.js';
import { PUBLISHERS_CHANGED } from './publishers.js';

const address = (id: string) => `publisher/${id}`;

/**
 * WebSub callbacks on a cluster node that runs no publishers (`--roles api`, `process`): hubs
 * call the public URL, which a load balancer may send to any node, so such a node takes the
 * callback too and forwards it to the node owning the publisher's shard. Without a cluster
 * there is nobody to forward to, and the routes stay off.
 */
export function websubForwardComponent(cluster: ClusterComponent): Component {
  let unsubscribe: (() => void) | null = null;
  return {
    name: 'websub-forward',
    start(n: Node) {
      const wiring = cluster.get();
      if (!wiring) return;
      const route = wiring.client('publisher');
      const cfg = n.config;
      const { known } = registerWebSubRoutes(n.router, {
        sql: n.sql,
        ask: (id, msg, timeoutMs) => {
          let timer: NodeJS.Timeout | undefined;
          return Promise.race([
            askVia<PublisherReply, PublisherMsg>(route, address(id), msg),
            new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new AskTimeoutError(address(id), msg.type, timeoutMs)), timeoutMs))),
          ]).finally(() => clearTimeout(timer));
        },
        send: (id, msg) => {
          try {
            route.deliver(address(id), msg);
          } catch (err) {
            n.log.debug({ publisher_id: id, type: msg.type, err: describeError(err) }, 'WebSub callback not forwarded');
          }
        },
        // this node holds no subscriptions: verifications are answered by the owner's actor
        intents: new WebSubIntents(),
        perPublisher: { rps: cfg.websubRateLimitRps, burst: cfg.websubRateLimitBurst },
        perClient: { rps: cfg.rateLimitRps, burst: cfg.rateLimitBurst },
        trustProxy: cfg.trustProxy.length > 0 ? new TrustedProxies(cfg.trustProxy) : null,
      });
      // publishers added or removed on any node: ids this node remembers as unknown (or known) are told at once
      unsubscribe = wiring.cluster.transport.subscribe(PUBLISHERS_CHANGED, (data) => {
        const c = data as { added?: unknown; removed?: unknown };
        const ids = (v: unknown) => (Array.isArray(v) ? v.filter((id): id is string => typeof id === 'string') : []);
        known.changed({ added: ids(c.added), removed: ids(c.removed) });
      });
    },
    stop() {
      unsubscribe?.();
    },
  };
}
