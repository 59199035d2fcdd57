import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect as tcpConnect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The shared NATS server with JetStream (never stopped or flushed by tests). */
export const SHARED_NATS_URL = process.env.NEWSAGG_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
export const NATS_SERVER_BIN = '/usr/sbin/nats-server';

/** A prefix no other test run uses: subjects, streams and buckets get it. */
export function uniquePrefix(tag = 't'): string {
  return `nt_${tag}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
}

/** Polls `cond` until true; throws with `what` after `timeoutMs`. */
export async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000, everyMs = 20): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = tcpConnect(port, '127.0.0.1');
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/** A nats-server of our own (ports 14300-14399), for restarts; its store survives a restart. */
export class OwnNatsServer {
  private child: ChildProcess | null = null;
  readonly dir = mkdtempSync(join(tmpdir(), 'newsagg-nats-'));

  private constructor(
    readonly port: number,
    private readonly jetstream: boolean,
    /** the HTTP monitoring port (`-m`), 0 = none */
    readonly monitorPort = 0,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  static async start(opts: { jetstream?: boolean; monitor?: boolean } = {}): Promise<OwnNatsServer> {
    for (let i = 0; i < 50; i++) {
      const port = 14300 + Math.floor(Math.random() * 100);
      if (!(await portFree(port))) continue;
      const monitor = opts.monitor ? port + 100 : 0; // 14400-14499
      if (monitor && !(await portFree(monitor))) continue;
      const s = new OwnNatsServer(port, opts.jetstream ?? true, monitor);
      try {
        await s.up();
        return s;
      } catch {
        s.down();
      }
    }
    throw new Error('no free port for nats-server in 14300-14399');
  }

  /** (re)start on the same port and store directory */
  async up(): Promise<void> {
    const js = this.jetstream ? ['-js', '-sd', this.dir] : [];
    const m = this.monitorPort ? ['-m', String(this.monitorPort)] : [];
    this.child = spawn(NATS_SERVER_BIN, ['-a', '127.0.0.1', '-p', String(this.port), ...js, ...m], { stdio: 'ignore' });
    await until(() => portOpen(this.port), `nats-server on ${this.port}`, 10_000, 50);
  }

  /** stop with SIGKILL (a crash) and wait for the port to close */
  async kill(): Promise<void> {
    const c = this.child;
    if (!c) return;
    this.child = null;
    const exited = new Promise<void>((r) => (c.exitCode !== null ? r() : c.once('exit', () => r())));
    c.kill('SIGKILL');
    await exited;
    await until(async () => !(await portOpen(this.port)), 'nats-server port to close', 10_000, 50);
  }

  /**
   * Messages the server has delivered to `subject`'s subscription of the client named `client`
   * (monitoring, `/connz?subs=detail`): counted when the server hands them to the connection,
   * also while the client process is stopped. 0 when there is no such subscription.
   */
  async delivered(client: string, subject: string): Promise<number> {
    if (!this.monitorPort) throw new Error('started without monitor: true');
    const res = await fetch(`http://127.0.0.1:${this.monitorPort}/connz?subs=detail&limit=1024`);
    const body = (await res.json()) as { connections: { name?: string; subscriptions_list_detail?: { subject: string; msgs: number }[] }[] };
    let n = 0;
    for (const c of body.connections) if (c.name === client) for (const sub of c.subscriptions_list_detail ?? []) if (sub.subject === subject) n += sub.msgs;
    return n;
  }

  down(): void {
    this.child?.kill('SIGKILL');
    this.child = null;
  }

  async stop(): Promise<void> {
    await this.kill();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/**
 * A TCP proxy between a client and a server that a test can cut. `cut()` is a silent partition:
 * the sockets stay open and nothing passes either way (no RST, no FIN), like a dead link or a
 * firewall that drops packets; the client notices only by its own timeouts. `heal()` lets bytes
 * through again (on new connections; the cut ones are destroyed).
 */
export class TcpProxy {
  private readonly server: Server;
  private readonly pairs = new Set<[Socket, Socket]>();
  private blocked = false;
  port = 0;

  private constructor(private readonly targetPort: number) {
    this.server = createServer((client) => this.accept(client));
  }

  static async start(targetPort: number): Promise<TcpProxy> {
    const p = new TcpProxy(targetPort);
    await new Promise<void>((r) => p.server.listen(0, '127.0.0.1', () => r()));
    p.port = (p.server.address() as { port: number }).port;
    return p;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  cut(): void {
    this.blocked = true;
    for (const [a, b] of this.pairs) {
      a.pause();
      b.pause();
      a.unpipe(b);
      b.unpipe(a);
    }
  }

  heal(): void {
    this.blocked = false;
    for (const [a, b] of this.pairs) {
      a.destroy();
      b.destroy();
    }
    this.pairs.clear();
  }

  async close(): Promise<void> {
    this.heal();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  private accept(client: Socket): void {
    if (this.blocked) {
      client.pause(); // accepted but silent, like the cut ones
      this.pairs.add([client, client]);
      return;
    }
    const upstream = tcpConnect(this.targetPort, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    this.pairs.add(pair);
    const end = () => {
      client.destroy();
      upstream.destroy();
      this.pairs.delete(pair);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.pipe(upstream);
    upstream.pipe(client);
  }
}
