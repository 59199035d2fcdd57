import type { Message } from './actor.js';
import type { FenceToken } from './fence.js';

/**
 * Called once with the outcome of an `ask`; plain sends carry none. An answer from a shard
 * owner carries the fencing token of its ownership (shard-route.ts, fence.ts).
 */
export type ReplyFn = (err: Error | null, value?: unknown, fence?: FenceToken | null) => void;

/** A message in flight to one actor. */
export interface Envelope {
  msg: Message;
  reply?: ReplyFn | undefined;
  /** failed delivery attempts so far (supervision) */
  attempts: number;
}

/** What crosses a thread or node boundary: plain, msgpack-encodable data only. */
export interface WireEnvelope {
  to: string;
  msg: Message;
  /** correlation id when the sender waits for a reply */
  askId?: number;
}

export interface WireReply {
  askId: number;
  ok: boolean;
  value?: unknown;
  error?: { code: string; message: string };
}
