import { Readable, Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { FetchError, toFetchError } from './errors.js';

/**
 * Reads a response body and undoes its Content-Encoding (gzip, deflate, br; stacked codings in
 * reverse order) while counting decompressed bytes, so a gzip bomb is cut after `maxBytes` of
 * output instead of filling memory. Truncated streams are accepted as far as they go (many feed
 * servers close early), like browsers do.
 */
export async function readDecoded(body: AsyncIterable<Buffer>, contentEncoding: string | undefined, maxBytes: number, url: string): Promise<Buffer> {
  const codings = (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return collect(body, maxBytes, url);

  let stream: AsyncIterable<Buffer> = body;
  const decoders: Transform[] = [];
  for (const coding of codings.reverse()) {
    const decoder = decoderFor(coding, url);
    decoders.push(decoder);
    stream = pipe(stream, decoder, url);
  }
  try {
    return await collect(stream, maxBytes, url);
  } finally {
    for (const d of decoders) d.destroy();
    if (body instanceof Readable) discard(body);
  }
}

function decoderFor(coding: string, url: string): Transform {
  const flush = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip(flush);
    case 'br':
      return createBrotliDecompress({ flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH });
    case 'deflate':
      // "deflate" should be zlib-wrapped, but some servers send raw deflate; decided per stream.
      return new DeflateSniffer(flush);
    default:
      throw new FetchError('FETCH_DECODE', `unsupported Content-Encoding "${coding}" from ${url}`, { url });
  }
}

/** Chooses zlib or raw inflate from the first byte (a zlib header starts with 0x?8, usually 0x78). */
class DeflateSniffer extends Transform {
  private inner: Transform | null = null;
  constructor(private readonly opts: object) { super(); }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    if (!this.inner) {
      this.inner = (chunk[0]! & 0x0f) === 0x08 ? createInflate(this.opts) : createInflateRaw(this.opts);
      this.inner.on('data', (d: Buffer) => this.push(d));
      this.inner.on('error', (e) => this.destroy(e));
    }
    this.inner.write(chunk, done);
  }

  override _flush(done: (err?: Error | null) => void): void {
    if (!this.inner) return done();
    this.inner.once('end', () => done());
    this.inner.end();
  }

  override _destroy(err: Error | null, cb: (err: Error | null) => void): void {
    this.inner?.destroy();
    cb(err);
  }
}

/** Feeds `source` into `decoder` with backpressure and yields what comes out. */
async function* pipe(source: AsyncIterable<Buffer>, decoder: Transform, url: string): AsyncGenerator<Buffer> {
  const feeding = (async () => {
    try {
      for await (const chunk of source) {
        if (!decoder.write(chunk)) await drained(decoder);
        if (decoder.destroyed) return;
      }
      decoder.end();
    } catch (err) {
      decoder.destroy(err as Error);
    }
  })();
  try {
    for await (const out of decoder) yield out as Buffer;
  } catch (err) {
    throw toFetchError(err, url);
  } finally {
    // Not awaited: the feeder may sit on a network read; readDecoded destroys the body, which ends it.
    decoder.destroy();
    void feeding;
  }
}

async function collect(source: AsyncIterable<Buffer>, maxBytes: number, url: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += chunk.length;
    if (size > maxBytes) throw new FetchError('FETCH_TOO_LARGE', `decoded body of ${url} exceeds ${maxBytes} bytes`, { url });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * Destroys a stream nobody reads any more. undici's body emits an AbortError when destroyed
 * early; with no listener left that would be an uncaught exception, so one is added first.
 */
export function discard(stream: Readable): void {
  if (stream.destroyed) return;
  stream.on('error', () => undefined);
  stream.destroy();
}

/** Resolves on 'drain' or 'close', removing both listeners (a bomb causes thousands of waits). */
function drained(stream: Transform): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done).off('close', done);
      resolve();
    };
    stream.on('drain', done).on('close', done);
  });
}
