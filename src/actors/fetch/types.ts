/**
 * The fetcher's public shapes and the layer contract. A layer wraps the next step, the way
 * undici's interceptors wrap `dispatch`: `(next) => (req) => ...`. Each politeness concern is one
 * layer in its own file; `index.ts` composes them around one undici dispatcher.
 */

export interface FetcherOptions {
  /** e.g. 'newsagg/0.1 (+https://example.org/newsagg)'; the product token is used for robots.txt */
  userAgent: string;
  /** CIDRs ('127.0.0.0/8', '::1/128'), addresses or hostnames ('feeds.local', '*.sim.test') the SSRF guard lets through */
  allowlist?: string[];
  /** cap on the compressed and on the decompressed body; default 5 MiB */
  maxBodyBytes?: number;
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  /** longest silence while the body streams */
  bodyTimeoutMs?: number;
  /** deadline for a whole fetch, redirects and queueing included; default 60 s */
  totalTimeoutMs?: number;
  /** default 5 */
  maxRedirects?: number;
  /** requests in flight to one origin (scheme, host, port) at once; default 2 */
  perHostConcurrency?: number;
  /** minimum spacing between request starts to one origin (scheme, host, port); robots Crawl-delay raises it; default 1000 */
  crawlDelayMs?: number;
  /** default true */
  respectRobots?: boolean;
  /** how long a robots.txt stays cached; default 24 h */
  robotsTtlMs?: number;
  /** injectable DNS for tests; default `dns.lookup` with `all: true` */
  lookup?: (hostname: string) => Promise<{ address: string; family: 4 | 6 }[]>;
  now?: () => number;
}

export interface FetchRequest {
  url: string;
  etag?: string | null;
  lastModified?: string | null;
  accept?: string;
  signal?: AbortSignal;
}

export interface FetchResult {
  status: number;
  /** final URL after redirects */
  url: string;
  /** new URL when a chain of 301/308 moved the resource */
  permanentRedirect: string | null;
  notModified: boolean;
  /** decompressed; empty on 304 */
  body: Buffer;
  contentType: string | null;
  charset: string | null;
  etag: string | null;
  lastModified: string | null;
  /** from Cache-Control / Expires */
  maxAgeMs: number | null;
  expiresAt: number | null;
  retryAfterMs: number | null;
  headers: Record<string, string>;
}

/** One HTTP exchange as the layers see it (one hop, or a whole redirect chain above redirect.ts). */
export interface HopRequest {
  url: URL;
  headers: Record<string, string>;
  signal: AbortSignal;
  maxBodyBytes: number;
  /** what the publisher stored from the last answer; turned into headers by conditional.ts */
  validators?: { etag?: string | null; lastModified?: string | null } | undefined;
}

export interface HopResponse {
  status: number;
  url: URL;
  headers: Record<string, string>;
  /** read and decoded only for 2xx answers; empty otherwise */
  body: Buffer;
  /** set by the redirect layer */
  permanentRedirect: URL | null;
}

export type Step = (req: HopRequest) => Promise<HopResponse>;
export type Layer = (next: Step) => Step;

/** compose(a, b, c)(base) = a(b(c(base))): the first layer is the outermost. */
export function compose(...layers: Layer[]): (base: Step) => Step {
  return (base) => layers.reduceRight<Step>((next, layer) => layer(next), base);
}
