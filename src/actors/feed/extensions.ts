import type { EntityContext } from './entities.js';
import { resolveUrl } from './links.js';
import { collapse } from './plain-text.js';
import { attr, kids, textOf } from './xml.js';

/**
 * What the Media RSS and iTunes extensions say about an item or channel beyond what the core
 * formats carry: categories (`itunes:category text`, nested; `media:category`; comma-separated
 * `itunes:keywords` and `media:keywords`), credits as authors, and the iTunes image, which older
 * podcast feeds also write as `<itunes:link rel="image" href>`.
 */

/** Extension categories of a node, in document order. */
export function extensionCategories(node: unknown, ents: EntityContext): string[] {
  const out: string[] = [];
  const walk = (n: unknown): void => {
    for (const c of kids(n, 'itunes:category')) {
      const t = attr(c, 'text', ents);
      if (t) out.push(t);
      walk(c);
    }
  };
  walk(node);
  const groups = kids(node, 'media:group');
  for (const n of [node, ...groups]) {
    for (const c of kids(n, 'media:category')) out.push(textOf(c, ents));
  }
  for (const k of [...kids(node, 'itunes:keywords'), ...kids(node, 'media:keywords'), ...groups.flatMap((g) => kids(g, 'media:keywords'))]) {
    out.push(...textOf(k, ents).split(','));
  }
  return out.map(collapse).filter((t) => t !== '');
}

/** Media RSS credits with an author-like role (or no role), as names. */
export function mediaCredits(node: unknown, ents: EntityContext): string[] {
  const credits = [...kids(node, 'media:credit'), ...kids(node, 'media:group').flatMap((g) => kids(g, 'media:credit'))];
  return credits
    .filter((c) => {
      const role = attr(c, 'role', ents)?.toLowerCase();
      return role === undefined || role === 'author' || role === 'writer' || role === 'reporter';
    })
    .map((c) => collapse(textOf(c, ents)))
    .filter((t) => t !== '');
}

/** `itunes:image href|url`, else `itunes:link rel="image" href`, resolved. */
export function itunesImage(node: unknown, ents: EntityContext, base: string | null): string | null {
  for (const it of kids(node, 'itunes:image')) {
    const u = resolveUrl(attr(it, 'href', ents) ?? attr(it, 'url', ents) ?? textOf(it, ents), base);
    if (u) return u;
  }
  for (const l of kids(node, 'itunes:link')) {
    if (attr(l, 'rel', ents)?.toLowerCase() !== 'image') continue;
    const u = resolveUrl(attr(l, 'href', ents), base);
    if (u) return u;
  }
  return null;
}
