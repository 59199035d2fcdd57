import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { NewsaggError } from './errors.js';
import { execArgvFor } from './module-url.js';
import type { Metrics } from './metrics.js';

export interface TaskPoolOptions {
  /** worker threads (default: cores - 1, at least 1) */
  threads?: number;
  /** true when task modules are TypeScript sources (tests, dev) */
  typescript?: boolean;
  metrics?: Metrics;
}

/** A task module failed or its worker died; the caller gets this instead of a hang. */
export class TaskFailedError extends NewsaggError {
  constructor(task: string, cause: unknown) {
    super('TASK_FAILED', `task ${task} failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/**
 * The shared pool for stateless CPU work (feed parsing, fingerprints, tokenising, classifying,
 * thumbnails) so the main thread stays free for I/O and the API. Any task module can run here:
 * a module URL plus an optional export name. Callers send batches: a round trip costs ~50 µs.
 */
export class TaskPool {
  private readonly pool: Piscina;
  private readonly tasks;

  constructor(opts: TaskPoolOptions = {}) {
    const threads = Math.max(1, opts.threads ?? availableParallelism() - 1);
    this.pool = new Piscina({
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Infinity,
      concurrentTasksPerWorker: 2,
      execArgv: opts.typescript ? execArgvFor('.ts') : [],
    });
    this.tasks = opts.metrics?.counter('newsagg_task_pool_tasks_total', 'Tasks run on the shared CPU pool', ['task', 'outcome']);
  }

  get threads(): number {
    return this.pool.options.maxThreads;
  }

  /** Run `name` (default export when omitted) of the module at `moduleUrl` with `input`. */
  async run<I, R>(moduleUrl: string, input: I, name?: string): Promise<R> {
    const label = `${moduleUrl.slice(moduleUrl.lastIndexOf('/') + 1)}${name ? `#${name}` : ''}`;
    try {
      const r = (await this.pool.run(input, { filename: moduleUrl, ...(name ? { name } : {}) })) as R;
      this.tasks?.inc({ task: label, outcome: 'ok' });
      return r;
    } catch (err) {
      this.tasks?.inc({ task: label, outcome: 'error' });
      throw new TaskFailedError(label, err);
    }
  }

  get queueSize(): number {
    return this.pool.queueSize;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
