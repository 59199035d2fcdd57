import { feedsOf } from '../../actors/store/feed-items.js';
import { FEED_CATEGORIES, FEED_REGIONS } from '../params.js';

/**
 * The `/v1/live` WebSocket protocol as pure functions: client frames in, error frames and topic
 * names out. Client frames are JSON text:
 *
 *   {"type":"subscribe","topics":["breaking","breaking:eu","feed:us:technology","story:ID"]}
 *   {"type":"unsubscribe","topics":[...]}
 *   {"type":"ping"}                                  -> {"type":"pong"}
 *
 * A frame the server cannot use gets `{"type":"error","error":{"code","message"}}` and the
 * connection stays open.
 */

export type ClientFrame = { type: 'subscribe' | 'unsubscribe'; topics: string[] } | { type: 'ping' };

export interface FrameError {
  code: string;
  message: string;
}

/** Story ids: what the store writes (as the REST routes accept them). */
const STORY_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const REGIONS = new Set<string>(FEED_REGIONS);
const CATEGORIES = new Set<string>(FEED_CATEGORIES);

/** True for `breaking`, `breaking:{region}`, `feed:{region}:{category}` and `story:{id}`. */
export function isTopic(t: string): boolean {
  if (t === 'breaking') return true;
  const i = t.indexOf(':');
  if (i < 0) return false;
  const kind = t.slice(0, i);
  const rest = t.slice(i + 1);
  switch (kind) {
    case 'breaking':
      return REGIONS.has(rest);
    case 'feed': {
      const j = rest.indexOf(':');
      return j > 0 && REGIONS.has(rest.slice(0, j)) && CATEGORIES.has(rest.slice(j + 1));
    }
    case 'story':
      return STORY_ID.test(rest) && !/^\.+$/.test(rest);
    default:
      return false;
  }
}

const clip = (s: string): string => {
  // eslint-disable-next-line no-control-regex
  const t = s.replace(/[\u0000-\u001f\u007f]/g, '?');
  return t.length > 60 ? `${t.slice(0, 60)}…` : t;
};

/** Parses one client frame; `maxBytes` is the largest frame answered. */
export function parseFrame(data: ArrayBuffer | Uint8Array | string, isBinary: boolean, maxBytes: number): ClientFrame | { error: FrameError } {
  const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  if (size > maxBytes) return { error: { code: 'frame_too_large', message: `frames are at most ${maxBytes} bytes` } };
  if (isBinary) return { error: { code: 'binary_frame', message: 'frames are JSON text' } };
  const text = typeof data === 'string' ? data : Buffer.from(data instanceof Uint8Array ? data : new Uint8Array(data)).toString('utf8');
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return { error: { code: 'invalid_json', message: 'the frame is not valid JSON' } };
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return { error: { code: 'invalid_frame', message: 'a frame is a JSON object with a "type"' } };
  // (the topics array is checked below; its length by the hub, against the per-connection limit)
  const f = v as Record<string, unknown>;
  if (f.type === 'ping') return { type: 'ping' };
  if (f.type !== 'subscribe' && f.type !== 'unsubscribe') {
    const named = typeof f.type === 'string' ? `unknown frame type "${clip(f.type)}"` : 'a frame needs a "type"';
    return { error: { code: 'invalid_frame', message: `${named}; expected subscribe, unsubscribe or ping` } };
  }
  if (!Array.isArray(f.topics) || f.topics.length === 0) return { error: { code: 'invalid_topics', message: '"topics" must be a non-empty array of topic names' } };
  const topics: string[] = [];
  for (const t of f.topics) {
    if (typeof t !== 'string' || !isTopic(t)) {
      return {
        error: {
          code: 'invalid_topic',
          message: `unknown topic ${typeof t === 'string' ? `"${clip(t)}"` : String(t)}; expected breaking, breaking:{region}, feed:{region}:{category} or story:{id}`,
        },
      };
    }
    if (!topics.includes(t)) topics.push(t);
  }
  return { type: f.type, topics };
}

/** The topics a new or updated story is pushed to: its feeds and its own. */
export function storyTopics(storyId: string, category: string | null, regions: readonly string[]): string[] {
  const out = feedsOf({ category, regions });
  out.push(`story:${storyId}`);
  return out;
}

/** The topics a breaking story is pushed to: `breaking`, `breaking:global` and each of its editions. */
export function breakingTopics(regions: readonly string[]): string[] {
  const out = ['breaking', 'breaking:global'];
  for (const r of regions) if (r !== 'global' && REGIONS.has(r)) out.push(`breaking:${r}`);
  return out;
}

/** An error frame. */
export function errorFrame(e: FrameError): string {
  return JSON.stringify({ type: 'error', error: e });
}
