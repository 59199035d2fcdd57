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
