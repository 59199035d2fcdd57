import type { ShardFences } from './fence.js';
import { LeaseKeeper, type LeaseStore } from './lease.js';
import { KvLeaseStore } from './lease-kv.js';
import { MemoryLeaseStore } from './lease-memory.js';
import { silentLogger, type Logger } from './log.js';
import { Membership } from './membership.js';
import type { NatsLink } from './nats-connect.js';
import { ShardOwnership, soleMember, type MemberView, type ShardKindSpec } from './ownership.js';
import { InProcessBus } from './transport-local.js';
import { NatsTransport } from './transport-nats.js';
import type { Transport } from './transport.js';

/**
 * One node's place in a cluster, assembled: transport, membership, leases and shard ownership.
 * On NATS (server mode) it is the real thing; without NATS (embedded mode) the same interfaces
 * with one member, an in-process bus and in-memory leases, so the roles are wired once.
 *
 *   const cluster = await openCluster({ nodeId, nats: node.nats, kinds, takes, log });
 *   cluster.ownership.attach('publisher', publisherShards);   // each role, before start
 *   cluster.start();
 *   node.ownedShards.track((k) => cluster.ownership.count(k));
 *   ...
 *   await cluster.stop();   // shards handed over at once, goodbye, subscriptions closed
 */
export interface Cluster {
  readonly nodeId: string;
  readonly transport: Transport;
  readonly members: MemberView;
  readonly ownership: ShardOwnership;
  start(): void;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  nodeId: string;
  /** sharded kinds and their shard counts: every node of a cluster must pass the same */
  kinds: Readonly<Record<string, ShardKindSpec>>;
  /** the kinds this node takes (by its roles); default all of `kinds` */
  takes?: readonly string[];
  /** server mode; null or absent = embedded */
  nats?: NatsLink | null;
  /** lease TTL for a new lease bucket (default 9 s: a crashed node's shards move within ~11 s) */
  leaseTtlMs?: number;
  /** heartbeat period (default 1 s; a silent node is dropped after 3.5 periods) */
  heartbeatMs?: number;
  /**
   * where a node that acquires a shard raises its fence before taking it up (server mode; the
   * database), so decisions of a deposed owner are refused when they are written (fence.ts)
   */
  fences?: ShardFences;
  log?: Logger;
}

export async function openCluster(opts: ClusterOptions): Promise<Cluster> {
  const log = opts.log ?? silentLogger;
  const ttlMs = opts.leaseTtlMs ?? 9_000;
  if (!opts.nats) {
    const transport = new InProcessBus().connect(opts.nodeId);
    const members = soleMember(opts.nodeId);
    const leases = new LeaseKeeper(new MemoryLeaseStore(ttlMs), { holder: opts.nodeId, log });
    const takes = new Set(opts.takes ?? Object.keys(opts.kinds));
    const view: MemberView = { ...members, membersFor: (k) => (takes.has(k) ? [opts.nodeId] : []) };
    const ownership = new ShardOwnership({ members: view, leases, kinds: opts.kinds, log, settleMs: 0 });
    return assemble(opts.nodeId, transport, view, ownership, async () => undefined);
  }
  const link = opts.nats;
  // asks waiting when the link drops are failed at once (their replies are lost): the caller asks again
  const transport = new NatsTransport(link.nc, opts.nodeId, { prefix: link.prefix, log, onStatus: (fn) => link.onStatus(fn) });
  const membership = new Membership(transport, {
    intervalMs: opts.heartbeatMs ?? 1000,
    log,
    ...(opts.takes ? { kinds: opts.takes } : {}),
  });
  const store: LeaseStore = await KvLeaseStore.open(link.nc, { bucket: `${link.prefix}_leases`, ttlMs });
  const leases = new LeaseKeeper(store, {
    holder: leaseHolder(opts.nodeId, membership.incarnation),
    // a key whose holder left the cluster is taken over even when the server fails to expire it
    holderLive: (holder) => {
      const h = parseLeaseHolder(holder);
      return h !== null && membership.isLiveIncarnation(h.node, h.incarnation);
    },
    log,
  });
  const ownership = new ShardOwnership({
    members: membership,
    leases,
    kinds: opts.kinds,
    ...(opts.fences ? { fences: opts.fences } : {}),
    log,
    // hear the cluster (hello + answers) before taking shards, so a cold start moves nothing
    settleMs: Math.round((opts.heartbeatMs ?? 1000) * 1.5),
  });
  const cluster = assemble(opts.nodeId, transport, membership, ownership, () => membership.stop());
  const start = cluster.start;
  return {
    ...cluster,
    start() {
      membership.start();
      start();
    },
  };
}

function assemble(nodeId: string, transport: Transport, members: MemberView, ownership: ShardOwnership, leave: () => Promise<void>): Cluster {
  return {
    nodeId,
    transport,
    members,
    ownership,
    start: () => ownership.start(),
    async stop() {
      await ownership.stop();
      await leave();
      await transport.close();
    },
  };
}

/** How a node process writes itself into a lease: its id and its incarnation. */
export function leaseHolder(node: string, incarnation: string): string {
  return `${node}#${incarnation}`;
}

/** The node and incarnation of a lease holder (null for a value no node wrote). */
export function parseLeaseHolder(holder: string): { node: string; incarnation: string } | null {
  const i = holder.lastIndexOf('#');
  return i > 0 && i < holder.length - 1 ? { node: holder.slice(0, i), incarnation: holder.slice(i + 1) } : null;
}
