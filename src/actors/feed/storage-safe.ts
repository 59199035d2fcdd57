import { safeOptional, safeText } from '../store/safe-text.js';
import type { FeedEntry, FeedInfo } from './types.js';

/**
 * The parser's output made safe to store (see store/safe-text.ts): a NUL or a lone surrogate in
 * a title would otherwise be refused by PostgreSQL far downstream, after the publisher had
 * already moved on. Entries are cleaned in place (they are the parser's own objects).
 */
export function safeEntries(entries: FeedEntry[]): FeedEntry[] {
  for (const e of entries) {
    e.title = safeOptional(e.title);
    e.link = safeOptional(e.link);
    e.id = safeOptional(e.id);
    e.summary = safeOptional(e.summary);
    e.content = safeOptional(e.content);
    e.author = safeOptional(e.author);
    e.thumbnail = safeOptional(e.thumbnail);
    if (e.refusedLink !== undefined) e.refusedLink = safeText(e.refusedLink);
    for (let i = 0; i < e.categories.length; i++) e.categories[i] = safeText(e.categories[i]!);
    for (const enc of e.enclosures) {
      enc.url = safeText(enc.url);
      enc.type = safeOptional(enc.type);
    }
  }
  return entries;
}

export function safeFeedInfo(f: FeedInfo): FeedInfo {
  f.title = safeOptional(f.title);
  f.link = safeOptional(f.link);
  f.description = safeOptional(f.description);
  f.language = safeOptional(f.language);
  f.image = safeOptional(f.image);
  return f;
}
