import type { EntityContext } from './entities.js';
import { toLength } from './fields.js';
import type { Enclosure } from './types.js';
import { resolveUrl } from './links.js';
import { collapse } from './plain-text.js';
import { attr, kids, textOf } from './xml.js';

/**
 * What the Media RSS and iTunes extensions say about an item or channel beyond what the core
 * formats carry: categories (`itunes:category text`, nested; `media:category`; comma-separated
 * `itunes:keywords` and `media:keywords`), credits as authors, and the iTunes image, which older
 * podcast feeds also write as `<itunes:link rel="image" href>`; audio and video `media:content`
 * as enclosures (video feeds often carry their media nowhere else).
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

/**
 * Audio and video `media:content` (also inside `media:group`) as enclosures; `fileSize` is the
 * length. Images stay out: they are thumbnails, and news feeds attach one to every item.
 */
export function mediaEnclosures(node: unknown, ents: EntityContext, base: string | null): Enclosure[] {
  const out: Enclosure[] = [];
  for (const c of [...kids(node, 'media:content'), ...kids(node, 'media:group').flatMap((g) => kids(g, 'media:content'))]) {
    const type = attr(c, 'type', ents)?.trim().toLowerCase() || null;
    const medium = attr(c, 'medium', ents)?.trim().toLowerCase();
    const av = medium ? medium === 'audio' || medium === 'video' : type !== null && /^(audio|video)\//.test(type);
    if (!av) continue;
    const url = resolveUrl(attr(c, 'url', ents), base);
    if (url) out.push({ url, type, length: toLength(attr(c, 'fileSize', ents)) });
  }
  return out;
}
