import type { ServerResponse } from 'node:http';
import type { SimFeedFormat } from './catalogue.js';

/** Tunables of the misbehaviour modes. */
export interface MisbehaviourOptions {
  /** `slow`: milliseconds before the response headers are sent (default 5000) */
  slowMs: number;
  /** `huge`: bytes streamed (default 50 MB) */
  hugeBytes: number;
  /** `rateLimited`: the window, in seconds, a client must wait between requests (default 120) */
  retryAfterSeconds: number;
}

export const DEFAULT_MISBEHAVIOUR: MisbehaviourOptions = {
  slowMs: 5000,
  hugeBytes: 50 * 1024 * 1024,
  retryAfterSeconds: 120,
};

/**
 * A broken copy of a feed, broken the ways real feeds break: an unescaped ampersand, a tag
 * closed in the wrong order, and the document cut off mid-element (JSON: cut off mid-value).
 */
export function malformBody(body: string, format: SimFeedFormat): string {
  if (format === 'jsonfeed') return body.slice(0, Math.floor(body.length * 0.6));
  let broken = body.replace('<title>', '<title>Fish & Chips <b>special</title></b> ');
  const cut = Math.max(broken.indexOf('<item>'), broken.indexOf('<entry>'), broken.indexOf('<url>'));
  const end = cut > 0 ? cut + Math.floor((broken.length - cut) * 0.5) : Math.floor(broken.length * 0.6);
  broken = broken.slice(0, end);
  return broken;
}

const FILLER_ITEM = '<item><title>Filler headline that never ends</title><link>http://example.invalid/x</link>'
  + '<description>Padding padding padding padding padding padding padding padding.</description></item>\n';

/**
 * Streams `bytes` of a never-ending but well-formed-looking feed, honouring backpressure so the
 * simulator itself never buffers it, and stopping when the client goes away.
 */
export function streamHuge(res: ServerResponse, bytes: number, format: SimFeedFormat): void {
  const head = format === 'jsonfeed'
    ? '{"version":"https://jsonfeed.org/version/1.1","title":"Huge","items":['
    : '<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0"><channel><title>Huge</title>\n';
  const unit = format === 'jsonfeed' ? '{"id":"x","title":"Filler","content_text":"padding padding padding"},' : FILLER_ITEM;
  const block = Buffer.from(unit.repeat(Math.ceil(65536 / unit.length)));
  let sent = 0;
  res.writeHead(200, { 'Content-Type': format === 'jsonfeed' ? 'application/feed+json' : 'application/rss+xml' });
  res.write(head);
  sent += head.length;
  const pump = (): void => {
    while (sent < bytes && !res.destroyed) {
      const chunk = bytes - sent >= block.length ? block : block.subarray(0, bytes - sent);
      sent += chunk.length;
      if (!res.write(chunk)) {
        res.once('drain', pump);
        return;
      }
    }
    if (!res.destroyed) res.end();
  };
  pump();
}
