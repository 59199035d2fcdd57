import type { AlertItem } from '../store/push-queue.js';

/**
 * The notification a push carries (JSON, encrypted by aes128gcm): what the service worker shows
 * and where a click leads. URLs are paths on the node that served the page, so the service worker
 * resolves them against its own origin and no public URL needs configuring.
 */
export interface AlertPayload {
  kind: 'breaking' | 'story' | 'topic';
  title: string;
  body: string;
  /** the story page */
  url: string;
  /** one notification per story: a newer alert of the same story replaces the shown one */
  tag: string;
  story_id: string;
  /** DELETE here stops this subscription (one click, no cookie needed) */
  stop_url: string;
}

const TITLE_MAX = 200;
const LINE_MAX = 160;

const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1).trimEnd()}…`);
const articles = (n: number) => `${n} ${n === 1 ? 'article' : 'articles'}`;

/** The payload of one alert to one subscription (well under the 4 KB a push message may carry). */
export function alertPayload(a: { kind: AlertPayload['kind']; story_id: string; item: AlertItem; subscription_id: string; stop_token: string }): AlertPayload {
  const item = a.item;
  const publisher = typeof item.publisher_name === 'string' ? item.publisher_name : '';
  const n = Number.isFinite(item.coverage_count) ? item.coverage_count : 1;
  const line =
    a.kind === 'breaking' ? `Breaking news · ${publisher}`
    : a.kind === 'story' ? `A story you follow: ${articles(n)} now`
    : `${articles(n)} · ${publisher}`;
  return {
    kind: a.kind,
    title: clip(typeof item.title === 'string' && item.title ? item.title : 'newsagg', TITLE_MAX),
    body: clip(line, LINE_MAX),
    url: `/story/${encodeURIComponent(a.story_id)}`,
    tag: `story-${a.story_id}`,
    story_id: a.story_id,
    stop_url: `/v1/me/push?stop=${encodeURIComponent(`${a.subscription_id}.${a.stop_token}`)}`,
  };
}
