import {
  AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType, nanos,
  type JetStreamManager, type NatsConnection, type StreamConfig,
} from 'nats';

/** Where a JetStream work queue lives; every node must pass the same values. */
export interface QueueStreamConfig {
  /** stream name (letters, digits, `-`, `_`) */
  stream: string;
  /** the one subject items are appended to */
  subject: string;
  /** durable consumer name shared by the consuming nodes */
  durable: string;
  /** where dead letters go (default `<subject>.dead`), kept in stream `<stream>_DEAD` */
  deadLetterSubject?: string;
  /** a message not acknowledged (nor kept alive) this long is redelivered: a dead node's share */
  ackWaitMs?: number;
  /** window in which a repeated `Nats-Msg-Id` is dropped */
  duplicateWindowMs?: number;
  /** stream size limit; appends beyond it fail with QUEUE_FULL (default unlimited) */
  maxBytes?: number;
  /** how long dead letters are kept */
  deadLetterMaxAgeMs?: number;
  replicas?: number;
  /** JetStream API timeout */
  timeoutMs?: number;
}

/** JetStream's "stream name already in use" (another node created it a moment earlier). */
const STREAM_NAME_IN_USE = 10058;

/**
 * Creates the work-queue stream, its dead-letter stream and the durable consumer when they are
 * missing; binds to them when they exist (several nodes start at once: the loser of a creation
 * race reads what the winner made). An existing stream's settings are left as they are.
 */
export async function ensureQueueStreams(
  nc: NatsConnection,
  cfg: QueueStreamConfig,
): Promise<{ deadLetterSubject: string; ackWaitMs: number }> {
  const jsm = await nc.jetstreamManager({ timeout: cfg.timeoutMs ?? 5000 });
  const deadLetterSubject = cfg.deadLetterSubject ?? `${cfg.subject}.dead`;
  const ackWaitMs = cfg.ackWaitMs ?? 10_000;
  await ensureStream(jsm, {
    name: cfg.stream,
    subjects: [cfg.subject],
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    discard: DiscardPolicy.New,
    duplicate_window: nanos(cfg.duplicateWindowMs ?? 120_000),
    max_bytes: cfg.maxBytes ?? -1,
    num_replicas: cfg.replicas ?? 1,
  });
  await ensureStream(jsm, {
    name: `${cfg.stream}_DEAD`,
    subjects: [deadLetterSubject],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    max_age: nanos(cfg.deadLetterMaxAgeMs ?? 14 * 86_400_000),
    duplicate_window: nanos(cfg.duplicateWindowMs ?? 120_000),
    num_replicas: cfg.replicas ?? 1,
  });
  try {
    await jsm.consumers.info(cfg.stream, cfg.durable);
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await jsm.consumers.add(cfg.stream, {
      durable_name: cfg.durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: nanos(ackWaitMs),
      max_ack_pending: 100_000,
      max_deliver: -1,
    });
  }
  return { deadLetterSubject, ackWaitMs };
}

async function ensureStream(jsm: JetStreamManager, sc: Partial<StreamConfig> & { name: string }): Promise<void> {
  try {
    await jsm.streams.info(sc.name);
    return;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  try {
    await jsm.streams.add(sc);
  } catch (err) {
    if ((err as { api_error?: { err_code?: number } }).api_error?.err_code !== STREAM_NAME_IN_USE) throw err;
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { code?: string; message?: string; api_error?: { code?: number } };
  return e?.api_error?.code === 404 || e?.code === '404' || /not found/i.test(e?.message ?? '');
}

/** Deletes a queue's streams (tests, and operators resetting a deployment). */
export async function deleteQueueStreams(nc: NatsConnection, stream: string): Promise<void> {
  const jsm = await nc.jetstreamManager();
  for (const name of [stream, `${stream}_DEAD`]) {
    try {
      await jsm.streams.delete(name);
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
}
