import type { Dispatcher } from 'undici';
import { FetchError } from './errors.js';

/** Per-request option read by the interceptor (undici passes unknown dispatch options through). */
export interface BodyLimitOptions { maxBodyBytes?: number }

type Handler = Dispatcher.DispatchHandler;
type Controller = Dispatcher.DispatchController;

/**
 * Cuts a response whose wire body (before decompression) exceeds the cap: at the headers when
 * Content-Length already says so, else at the first chunk past the cap. Modelled on undici's
 * `dump` interceptor; the decompressed size is capped separately in decode.ts.
 */
class BodyLimitHandler implements Handler {
  private size = 0;
  private controller: Controller | null = null;

  constructor(private readonly max: number, private readonly origin: string, private readonly handler: Handler) {}

  onRequestStart(controller: Controller, context: unknown): void {
    this.controller = controller;
    this.handler.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(controller: Controller, statusCode: number, headers: Record<string, string | string[]>, socket: import('node:stream').Duplex): void {
    this.handler.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(controller: Controller, statusCode: number, headers: Record<string, string | string[] | undefined>, statusMessage?: string): void {
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > this.max) {
      controller.abort(this.tooLarge(`declares ${declared} bytes`));
      return;
    }
    this.handler.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.max) {
      controller.abort(this.tooLarge(`sent more than ${this.max} bytes`));
      return;
    }
    this.handler.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: Record<string, string | string[] | undefined>): void {
    this.handler.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Controller, err: Error): void {
    this.handler.onResponseError?.(controller, err);
  }

  private tooLarge(what: string): FetchError {
    return new FetchError('FETCH_TOO_LARGE', `response from ${this.origin} ${what} (cap ${this.max})`, { url: this.origin });
  }
}

/** `agent.compose(bodyLimit({ maxBodyBytes }))`; a request may lower or raise it with its own `maxBodyBytes`. */
export function bodyLimit(defaults: { maxBodyBytes: number }): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => {
    const max = (opts as BodyLimitOptions).maxBodyBytes ?? defaults.maxBodyBytes;
    return dispatch(opts, new BodyLimitHandler(max, String(opts.origin ?? ''), handler));
  };
}
