/**
 * Second chance for a document the XML parser refused. Feeds are written by hand and cut off by
 * flaky servers; a reader (and Python's feedparser) still shows what can be read. Each repair is
 * local and conservative, and applies only after a strict parse failed, so well-formed feeds
 * never pay for it:
 * - a `<` that cannot start markup (`a < b`, `1 <2`) is text: escaped;
 * - a document that ends inside a tag (`</feed`, `<item><ti`) loses the broken tail, or gets its
 *   missing `>`;
 * - a closing tag spelt in another case than its start tag (`<title>x</Title>`) takes the start
 *   tag's spelling;
 * - when the end is still unreadable, the document is cut after its last complete item or entry
 *   (the parser closes elements left open at the end).
 * Returns the candidates to try, most faithful first; one without any complete element is no
 * candidate (the document stays malformed).
 */
export function repairCandidates(xml: string): string[] {
  const out: string[] = [];
  let fixed = xml.replace(STRAY_LT, '&lt;');
  const tail = /<\/([A-Za-z_][\w.:-]*)\s*$/.exec(fixed);
  if (tail) fixed = `${fixed.trimEnd()}>`;
  else fixed = fixed.replace(/<[^<>]*$/, '');
  fixed = closingTagCase(fixed);
  if (fixed !== xml) out.push(fixed);
  const cut = Math.max(fixed.lastIndexOf('</item>'), fixed.lastIndexOf('</entry>'));
  if (cut !== -1) {
    const end = fixed.indexOf('>', cut) + 1;
    if (end > 0 && end < fixed.length) out.push(fixed.slice(0, end));
  }
  // a repair that leaves no complete element (`<rss><channel><item` → `<rss><channel>`) read nothing
  return out.filter((c) => COMPLETE_ELEMENT.test(c));
}

const COMPLETE_ELEMENT = /<\/|\/>/;

/** `<` not followed by what markup starts with: a name, `/`, `!` or `?`. */
const STRAY_LT = /<(?![A-Za-z_:/!?])/g;

/** Closing tags whose name no start tag has, renamed to the start tag that matches but for case. */
function closingTagCase(xml: string): string {
  const opened = new Map<string, string>();
  const exact = new Set<string>();
  for (const m of xml.matchAll(/<([A-Za-z_][\w.:-]*)/g)) {
    const name = m[1]!;
    exact.add(name);
    if (!opened.has(name.toLowerCase())) opened.set(name.toLowerCase(), name);
  }
  return xml.replace(/<\/([A-Za-z_][\w.:-]*)(\s*>)/g, (whole, name: string, end: string) => {
    if (exact.has(name)) return whole;
    const to = opened.get(name.toLowerCase());
    return to ? `</${to}${end}` : whole;
  });
}
