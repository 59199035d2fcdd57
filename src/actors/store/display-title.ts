/**
 * Headlines as a reader sees them. The stored title stays as the publisher sent it (search,
 * dedup and wire-copy detection read it); the API and the web UI show the display title: without
 * wire slugs (`UPDATE 2-`, `REFILE-`) and without a trailing `| Outlet` or `- Outlet`, since the
 * publisher is shown beside every headline anyway. Framings such as "Analysis:" stay: they tell
 * the reader what kind of piece it is.
 */

const WIRE_SLUG = /^\s*(?:(?:UPDATE|REFILE|CORRECTED|RPT|WRAPUP)(?:\s*\d+)?\s*-\s*)+(?=\S)/;
const PIPE_SUFFIX = /\s*\|\s*([^|]{1,60})$/;
const DASH_SUFFIX = /\s+[-\u2013\u2014]\s+([^-\u2013\u2014|]{1,50})$/;
const SMALL = new Set(['the', 'of', 'and', 'de', 'la', 'le', 'on', 'for', 'at', 'in', '&']);

/** `title` for display; `publisherName` is who published it (a suffix naming it always goes). */
export function displayTitle(title: string, publisherName = ''): string {
  let t = title.replace(WIRE_SLUG, '');
  const pipe = PIPE_SUFFIX.exec(t);
  if (pipe && pipe.index >= 15 && wordCount(pipe[1]!) <= 6) {
    // a pipe before a short tail is a site's signature, whoever's
    t = t.slice(0, pipe.index);
  } else {
    const dash = DASH_SUFFIX.exec(t);
    // a dash is also punctuation ("Stocks rise - and fall - on jobs data"): the tail must name
    // the publisher, or read like an outlet's name after a headline that is not itself Title Case
    if (dash && dash.index > 0 && (sameName(dash[1]!, publisherName) || (looksLikeOutlet(dash[1]!) && !titleCased(t.slice(0, dash.index))))) t = t.slice(0, dash.index);
  }
  return t.trim() || title;
}

function wordCount(s: string): number {
  return s.trim().split(/\s+/).length;
}

function sameName(a: string, b: string): boolean {
  const x = a.trim().toLowerCase();
  return x.length > 0 && x === b.trim().toLowerCase();
}

/** 1-6 words, each capitalised or a small joining word: "The Chicago Ledger", "Auckland Morning Star". */
function looksLikeOutlet(s: string): boolean {
  const words = s.trim().split(/\s+/);
  if (words.length > 6) return false;
  return words.every((w) => SMALL.has(w.toLowerCase()) || /^[A-Z0-9]/.test(w)) && /^[A-Z]/.test(words[0]!);
}

/** Most words of the headline start with a capital ("Quake Hits Tokyo"). */
function titleCased(s: string): boolean {
  const words = s.split(/\s+/).filter((w) => /^[A-Za-z]/.test(w) && !SMALL.has(w.toLowerCase()));
  return words.length >= 3 && words.filter((w) => /^[A-Z]/.test(w)).length >= words.length * 0.8;
}
