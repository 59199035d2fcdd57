/**
 * A publisher's display name. Publishers added by URL alone (admin API, OPML outlines without a
 * title, catalogue entries titled by a web address) are named after the feed's host until the
 * feed says better: the feed's own title replaces such a placeholder on the next successful
 * poll, while a name someone chose is never overwritten.
 */

/**
 * True when `name` says nothing the feed URL does not: empty, the URL itself, or its host (with
 * or without www.) in any case, unless written in a brand's mixed case ("Investing.com",
 * "GSMArena.com" for the sites of those hosts: someone chose that spelling; all capitals do not count).
 */
export function isPlaceholderName(name: string, feedUrl: string): boolean {
  const trimmed = name.trim();
  const n = trimmed.toLowerCase().replace(/\/+$/, '');
  if (n === '') return true;
  if (/\p{Lu}/u.test(trimmed) && /\p{Ll}/u.test(trimmed) && !/^https?:\/\//i.test(trimmed)) return false;
  let host: string;
  try {
    host = new URL(feedUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  const bare = host.replace(/^www\./, '');
  const plain = n.replace(/^https?:\/\//, '');
  return plain === host || plain === bare || n === feedUrl.toLowerCase();
}

/** The name to keep after a poll: the feed's title when the current name is a placeholder. */
export function nameAfterPoll(current: string, feedUrl: string, feedTitle: string | null | undefined): string {
  const title = feedTitle?.replace(/\s+/g, ' ').trim().slice(0, 200);
  if (!title || !isPlaceholderName(current, feedUrl) || isPlaceholderName(title, feedUrl)) return current;
  return title;
}
