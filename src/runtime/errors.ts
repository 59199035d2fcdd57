/**
 * The error hierarchy every layer shares. A `code` is stable and machine-readable; the
 * `userMessage` is safe to show to API clients; `message` may carry internal detail for logs.
 * Nothing above the runtime ever shows a stack trace to a user.
 */
export class NewsaggError extends Error {
  readonly code: string;
  readonly userMessage: string;

  constructor(code: string, message: string, options: { cause?: unknown; userMessage?: string } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.userMessage = options.userMessage ?? message;
  }
}

/** An `ask` got no reply within its timeout. */
export class AskTimeoutError extends NewsaggError {
  constructor(address: string, type: string, timeoutMs: number) {
    super('ASK_TIMEOUT', `ask ${type} to ${address} timed out after ${timeoutMs} ms`);
  }
}

/** The target actor is stopped, or its worker died while the caller waited. */
export class ActorUnavailableError extends NewsaggError {
  constructor(address: string, reason: string, cause?: unknown) {
    super('ACTOR_UNAVAILABLE', `actor ${address} unavailable: ${reason}`, { cause });
  }
}

/** A bounded mailbox refused a message (backpressure policy). */
export class MailboxFullError extends NewsaggError {
  constructor(address: string, capacity: number) {
    super('MAILBOX_FULL', `mailbox of ${address} is full (${capacity})`);
  }
}

/** Bad configuration: reported as one line, exit code 2. */
export class ConfigError extends NewsaggError {
  constructor(message: string, cause?: unknown) {
    super('CONFIG_INVALID', message, { cause });
  }
}

/** Something the node needs at start (database, cache, bus) is unreachable. */
export class DependencyUnavailableError extends NewsaggError {
  constructor(what: string, detail: string, cause?: unknown) {
    super('DEPENDENCY_UNAVAILABLE', `${what} unreachable: ${detail}`, { cause });
  }
}

/**
 * True when `err` says a backing service (database, cache) is away rather than that something is
 * wrong with the work: its adapter logs the outage once, so callers log such failures at debug.
 */
export function isOutage(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'DEPENDENCY_UNAVAILABLE' || code === 'CACHE_UNAVAILABLE';
}

/** A short one-line description of any thrown value, for logs and dead letters. */
export function describeError(err: unknown): string {
  if (err instanceof NewsaggError) return `${err.code}: ${err.message}`;
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
