/**
 * Second chance for a document the XML parser refused. Feeds are written by hand and cut off by
 * flaky servers; a reader (and Python's feedparser) still shows what can be read. Each repair is
 * local and conservative, and applies only after a strict parse failed, so well-formed feeds
 * never pay for it:
 * - a `<` that cannot start markup (`a < b`, `1 <2`) is text: escaped;
 * - a document that ends inside a tag (`</feed`, `<item><ti`) loses the broken tail, or gets its
 *   missing `>`;
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
