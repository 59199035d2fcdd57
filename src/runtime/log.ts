import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/**
 * Structured logs (pino, JSON lines to stderr so stdout stays free for CLI output such as
 * `parse-feed` and `process`). Child loggers carry context like `actor`, `publisher_id`.
 */
export function createLogger(options: { level?: string; name?: string } = {}): Logger {
  const opts: LoggerOptions = {
    level: options.level ?? 'info',
    base: { name: options.name ?? 'newsagg', pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  return pino(opts, pino.destination({ fd: 2, sync: false }));
}

/** A logger that drops everything; the default in tests and library use. */
export const silentLogger: Logger = pino({ level: 'silent' });
