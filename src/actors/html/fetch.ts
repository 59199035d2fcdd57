/**
 * The one I/O dependency of discovery and sitemap crawling. The node wires the safe fetcher
 * (`src/actors/fetch/`: SSRF guard, robots, limits, politeness) behind this signature; tests
 * use a plain client against local HTTP servers. It may throw; callers treat a throw as a
 * failed fetch of that URL.
 */
export interface PageResponse {
  status: number;
  /** final URL after redirects */
  url: string;
  body: Buffer;
  contentType: string | null;
}

export type PageFetch = (url: string) => Promise<PageResponse>;

/** What a fetch-capable client needs to offer (the safe `Fetcher` fits structurally). */
export interface FetchClient {
  fetch(req: { url: string; accept?: string }): Promise<PageResponse>;
}

/** Accept headers for the three kinds of document this module fetches. */
export const ACCEPT = {
  html: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
  sitemap: 'application/xml,text/xml;q=0.9,*/*;q=0.5',
  image: 'image/avif,image/webp,image/jpeg,image/png,image/gif;q=0.9,*/*;q=0.2',
} as const;

/** Adapt a fetch client (the node's `Fetcher`) to the `PageFetch` signature. */
export function pageFetchFrom(client: FetchClient, accept: string = ACCEPT.html): PageFetch {
  return (url) => client.fetch({ url, accept });
}
