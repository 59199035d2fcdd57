import type { Message } from './actor.js';

/** Called once with the outcome of an `ask`; plain sends carry none. */
export type ReplyFn = (err: Error | null, value?: unknown) => void;

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
