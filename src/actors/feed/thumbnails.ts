import { itunesImage } from './extensions.js';
import type { EntityContext } from './entities.js';
import { resolveUrl } from './links.js';
import type { Enclosure } from './types.js';
import { attr, kid, kids } from './xml.js';

/**
 * Thumbnail choice, best evidence first: `media:thumbnail` (the widest, also inside
 * `media:group` / `media:content`), an image `media:content`, an image enclosure,
 * `itunes:image`, then the first `<img>` of the content or summary.
 */

const IMAGE_EXT = /\.(?:jpe?g|png|gif|webp|avif)(?:[?#]|$)/i;

function widest(nodes: unknown[], base: string | null, ents: EntityContext): string | null {
  let best: string | null = null;
  let bestW = -1;
  for (const n of nodes) {
    const u = resolveUrl(attr(n, 'url', ents), base);
    if (!u) continue;
    const w = Number(attr(n, 'width', ents) ?? 0) || 0;
    if (w > bestW) {
      best = u;
      bestW = w;
    }
  }
  return best;
}

function isImage(node: unknown, url: string, ents: EntityContext): boolean {
  const medium = attr(node, 'medium', ents)?.toLowerCase();
  if (medium) return medium === 'image';
  const type = attr(node, 'type', ents)?.toLowerCase();
  if (type) return type.startsWith('image/');
  return IMAGE_EXT.test(url);
}

/** Thumbnail from an item/entry element; `firstImage` comes from the sanitised content. */
export function pickThumbnail(
  item: unknown,
  base: string | null,
  ents: EntityContext,
  enclosures: Enclosure[],
  firstImage: string | null,
): string | null {
  const groups = kids(item, 'media:group');
  const contents = [...kids(item, 'media:content'), ...groups.flatMap((g) => kids(g, 'media:content'))];
  const thumbs = [
    ...kids(item, 'media:thumbnail'),
    ...groups.flatMap((g) => kids(g, 'media:thumbnail')),
    ...contents.flatMap((c) => kids(c, 'media:thumbnail')),
  ];
  if (thumbs.length > 0) {
    const t = widest(thumbs, base, ents);
    if (t) return t;
  }
  const images = contents.filter((c) => {
    const u = attr(c, 'url', ents);
    return u !== undefined && isImage(c, u, ents);
  });
  if (images.length > 0) {
    const t = widest(images, base, ents);
    if (t) return t;
  }
  for (const e of enclosures) {
    if (e.type ? e.type.toLowerCase().startsWith('image/') : IMAGE_EXT.test(e.url)) return e.url;
  }
  return itunesImage(item, ents, base) ?? firstImage;
}
