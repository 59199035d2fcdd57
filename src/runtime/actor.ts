import type { Logger } from './log.js';

/**
 * The actor contract. An actor is one file exporting its message union, its state type and a
 * `Behaviour`. Messages are plain data (msgpack-encodable: no functions, classes or cycles) so
 * they cross threads and nodes unchanged; actors are reached by address, never by reference.
 */

/** `kind/key`, e.g. `publisher/8f3c`, `dedup/2-17`. The key may itself contain `/`. */
export type Address = string;

export interface Message {
  readonly type: string;
}

export function address(kind: string, key: string): Address {
  return `${kind}/${key}`;
}

export function parseAddress(addr: Address): { kind: string; key: string } {
  const i = addr.indexOf('/');
  if (i <= 0) throw new TypeError(`bad actor address: ${addr}`);
  return { kind: addr.slice(0, i), key: addr.slice(i + 1) };
}

/** What happens when a bounded mailbox is full. */
export type OverflowPolicy =
  /** the sender is refused (`send` throws MailboxFullError, `ask` rejects): producers slow down */
  | 'backpressure'
  /** the new message is dropped and counted */
  | 'drop-newest'
  /** the oldest queued message is dropped to make room */
  | 'drop-oldest'
  /** a queued message with the same coalesce key is replaced by the new one */
  | 'coalesce';

export interface MailboxOptions<M extends Message = Message> {
  /** maximum queued messages; Infinity for unbounded */
  capacity: number;
  overflow: OverflowPolicy;
  /** for `coalesce`: messages with equal keys replace each other (default: `type`) */
  coalesceKey?: (msg: M) => string;
}

export interface SupervisionOptions {
  /** delivery attempts of one message before it goes to the dead-letter log */
  maxAttempts: number;
  /** restart backoff: min * 2^(restarts-1), capped at max, with ±20 % jitter */
  backoffMinMs: number;
  backoffMaxMs: number;
}

/** What an actor can do while it handles a message. */
export interface ActorContext {
  readonly self: Address;
  readonly kind: string;
  readonly key: string;
  readonly log: Logger;
  /** the system clock (injected, so tests can use fake time) */
  now(): number;
  send<M extends Message>(to: Address, msg: M): void;
  ask<R = unknown, M extends Message = Message>(to: Address, msg: M, timeoutMs?: number): Promise<R>;
  /** a timer is a message to self; a second schedule with the same id replaces the first */
  schedule<M extends Message>(delayMs: number, msg: M, id?: string): void;
  cancelTimer(id: string): void;
  /** stop this actor after the current message */
  stop(): void;
}

/**
 * A behaviour. `init` builds the state and doubles as the state-reload hook: it runs when the
 * actor is spawned and again after every restart (and in a replacement worker), so it should
 * read persisted state. `receive` handles one message at a time; it may mutate `state` in place;
 * its return value is the reply when the message came through `ask`.
 */
export interface Behaviour<S = unknown, M extends Message = Message> {
  readonly kind: string;
  init(key: string, ctx: ActorContext): S | Promise<S>;
  receive(state: S, msg: M, ctx: ActorContext): unknown | Promise<unknown>;
  /** runs once when the actor stops (not on restart) */
  stopped?(state: S, ctx: ActorContext): void | Promise<void>;
  mailbox?: MailboxOptions<M>;
  supervision?: Partial<SupervisionOptions>;
}

/** Helper that keeps the generic types when defining a behaviour object literal. */
export function defineBehaviour<S, M extends Message>(b: Behaviour<S, M>): Behaviour<S, M> {
  return b;
}
