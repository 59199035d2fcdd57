import type { Sql } from '../../runtime/sql.js';
import { pickRelated, type CachedStory, type HeadlineCandidate } from './feed-items.js';

/** newest originals read per story to find RELATED_MAX headlines of other publishers */
const CANDIDATES_PER_STORY = 12;

/**
 * Each story's newest original articles (wire copies left out) from publishers other than its
 * lead's: one statement, an index probe per story on (story_id, published_at).
 */
export async function storyHeadlines(
  sql: Sql,
  stories: readonly { id: string; leadPublisherId: string }[],
  perStory = CANDIDATES_PER_STORY,
): Promise<Map<string, HeadlineCandidate[]>> {
  const out = new Map<string, HeadlineCandidate[]>();
  if (stories.length === 0) return out;
  const { rows } = await sql.query<HeadlineCandidate & { story_id: string }>(
    `SELECT k.story_id, a.id, a.title, a.publisher_id, COALESCE(p.name, a.publisher_id) AS publisher_name
       FROM unnest($1::text[], $2::text[]) AS k(story_id, lead_publisher)
       CROSS JOIN LATERAL (
         SELECT id, title, publisher_id, published_at FROM articles
          WHERE story_id = k.story_id AND duplicate_of IS NULL AND publisher_id <> k.lead_publisher
          ORDER BY published_at DESC LIMIT $3
       ) a
       LEFT JOIN publishers p ON p.id = a.publisher_id
      ORDER BY k.story_id, a.published_at DESC, a.id DESC`,
    [stories.map((s) => s.id), stories.map((s) => s.leadPublisherId), perStory],
  );
  for (const r of rows) {
    let list = out.get(r.story_id);
    if (!list) out.set(r.story_id, (list = []));
    list.push({ id: r.id, title: r.title, publisher_id: r.publisher_id, publisher_name: r.publisher_name });
  }
  return out;
}

/**
 * Feed cache entries with the headlines of other publishers under their lead (`item.related`),
 * read once when the stories are written, so serving a cached feed page costs nothing more.
 * Stories of a single article are not looked up.
 */
export async function withRelated(sql: Sql, stories: readonly CachedStory[]): Promise<CachedStory[]> {
  const wanted = stories.filter((s) => s.item.coverage_count > 1);
  const found = await storyHeadlines(sql, wanted.map((s) => ({ id: s.item.story_id, leadPublisherId: s.publisher_id })));
  return stories.map((s) => {
    const candidates = found.get(s.item.story_id);
    if (!candidates) return s;
    const related = pickRelated(s.item, candidates);
    return related.length ? { ...s, item: { ...s.item, related } } : s;
  });
}
