import { createHash } from 'node:crypto';
import type { RawArticle } from '../actors/ingest/types.js';
import type { Logger } from '../runtime/log.js';
import type { NatsLink } from '../runtime/nats-connect.js';
import { JetStreamWorkQueue } from '../runtime/work-queue-nats.js';

/**
 * The stable id of a raw article in the ingest log: the same article appended twice (a retried
 * append, a publisher polling again after a crash) carries the same id, so the stream drops the
 * repeat within its duplicate window and the dead-letter record names it.
 */
export function rawArticleId(a: RawArticle): string {
  if (a.id) return a.id;
  return createHash('sha1').update(`${a.publisher ?? ''}\n${a.url}`).digest('base64url');
}

/**
 * The durable ingest log of server mode (JetStream): stream `<prefix>_INGEST` on subject
 * `<prefix>.ingest`, one durable consumer `process` shared by every process node, dead letters
 * on `<prefix>.ingest.dead` (stream `<prefix>_INGEST_DEAD`). Ingest nodes append (an append
 * resolves once the stream stored it: only then do a publisher's validators move on); process
 * nodes consume and acknowledge a message after its articles are stored. A message a dead node
 * held comes back to another process node after the ack wait.
 */
export async function openIngestLog(link: NatsLink, opts: { log: Logger; maxBatch?: number }): Promise<JetStreamWorkQueue<RawArticle>> {
  const p = link.prefix;
  return JetStreamWorkQueue.open<RawArticle>(link.nc, {
    stream: `${p}_INGEST`,
    subject: `${p}.ingest`,
    durable: 'process',
    idOf: rawArticleId,
    maxBatch: opts.maxBatch ?? 256,
    ackWaitMs: 10_000,
    maxDeliver: 5,
    retry: { minMs: 500, maxMs: 30_000 },
    log: opts.log,
  });
}
