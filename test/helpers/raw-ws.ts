import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

/**
 * A bare WebSocket client over a TCP socket (RFC 6455, text frames, no extensions): cheap enough
 * for ten thousand connections in one process, and able to do what a browser never does on
 * purpose: stop reading (`pause`), leave pings unanswered, send binary or broken frames.
 */

export interface RawFrame {
  opcode: number;
  payload: Buffer;
}

export const OP = { text: 1, binary: 2, close: 8, ping: 9, pong: 10 } as const;

export class RawWs {
  /** frames received, unless `keep` is false */
  readonly frames: RawFrame[] = [];
  onFrame: ((f: RawFrame) => void) | null = null;
  /** answer pings as browsers do (on unless told otherwise) */
  autoPong = true;
  /** resolves with the close code the server sent (null when the socket just ended) */
  readonly closed: Promise<number | null>;
  private buf: Buffer = Buffer.alloc(0);
  private closeCode: number | null = null;

  private constructor(
    readonly socket: Socket,
    private readonly keep: boolean,
  ) {
    this.closed = new Promise((resolve) => socket.once('close', () => resolve(this.closeCode)));
  }

  /** Connects and upgrades; rejects with the HTTP status line when the server refuses. */
  static open(port: number, opts: { path?: string; host?: string; keep?: boolean; autoPong?: boolean; headers?: Record<string, string> } = {}): Promise<RawWs> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, opts.host ?? '127.0.0.1');
      const ws = new RawWs(socket, opts.keep ?? true);
      ws.autoPong = opts.autoPong ?? true;
      let head = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk]);
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        socket.off('data', onData);
        const status = head.subarray(0, head.indexOf('\r\n')).toString();
        if (!status.startsWith('HTTP/1.1 101')) {
          socket.destroy();
          reject(new Error(status));
          return;
        }
        socket.on('data', (c: Buffer) => ws.receive(c));
        ws.receive(head.subarray(end + 4));
        resolve(ws);
      };
      socket.on('data', onData);
      socket.once('error', reject);
      socket.once('connect', () => {
        socket.write(
          `GET ${opts.path ?? '/v1/live'} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
            `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n` +
            Object.entries(opts.headers ?? {}).map(([k, v]) => `${k}: ${v}\r\n`).join('') +
            '\r\n',
        );
      });
    });
  }

  /** Sends one masked frame (client frames must be masked). */
  sendFrame(opcode: number, payload: Buffer | string): void {
    const data = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const len = data.length;
    const head = len < 126 ? Buffer.alloc(2) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
    head[0] = 0x80 | opcode;
    if (len < 126) head[1] = 0x80 | len;
    else if (len < 65536) {
      head[1] = 0x80 | 126;
      head.writeUInt16BE(len, 2);
    } else {
      head[1] = 0x80 | 127;
      head.writeBigUInt64BE(BigInt(len), 2);
    }
    const mask = randomBytes(4);
    const body = Buffer.alloc(len);
    for (let i = 0; i < len; i++) body[i] = data[i]! ^ mask[i & 3]!;
    this.socket.write(Buffer.concat([head, mask, body]));
  }

  send(text: string): void {
    this.sendFrame(OP.text, text);
  }

  json(v: unknown): void {
    this.send(JSON.stringify(v));
  }

  /** Text frames received, parsed. */
  messages(): { type: string; [k: string]: unknown }[] {
    return this.frames.filter((f) => f.opcode === OP.text).map((f) => JSON.parse(f.payload.toString('utf8')) as { type: string });
  }

  /** Stops reading from the socket: the kernel buffers fill, then the server's. */
  pause(): void {
    this.socket.pause();
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    this.buf = this.buf.length === 0 ? chunk : Buffer.concat([this.buf, chunk]);
    for (;;) {
      if (this.buf.length < 2) return;
      const opcode = this.buf[0]! & 0x0f;
      let len = this.buf[1]! & 0x7f;
      let at = 2;
      if (len === 126) {
        if (this.buf.length < 4) return;
        len = this.buf.readUInt16BE(2);
        at = 4;
      } else if (len === 127) {
        if (this.buf.length < 10) return;
        len = Number(this.buf.readBigUInt64BE(2));
        at = 10;
      }
      if (this.buf.length < at + len) return;
      const payload = this.buf.subarray(at, at + len);
      this.buf = this.buf.subarray(at + len);
      if (opcode === OP.close && payload.length >= 2) this.closeCode = payload.readUInt16BE(0);
      if (opcode === OP.ping && this.autoPong && !this.socket.destroyed) this.sendFrame(OP.pong, payload);
      const f = { opcode, payload: Buffer.from(payload) };
      if (this.keep) this.frames.push(f);
      this.onFrame?.(f);
    }
  }
}
