import { authorityOf, TIER_AUTHORITY, type PublisherRecord } from '../publisher/authority.js';
import type { Sql } from '../../runtime/sql.js';

/** How far back a publisher's record reaches. */
export const AUTHORITY_WINDOW_DAYS = 30;

/**
 * Recomputes `publishers.authority` from each publisher's tier and its record over the window
 * (one aggregate over the window's articles, one update). Returns how many publishers it set.
 */
export async function recomputeAuthority(sql: Sql, now: number, windowDays = AUTHORITY_WINDOW_DAYS): Promise<number> {
  const since = new Date(now - windowDays * 86_400_000).toISOString();
  const { rows } = await sql.query<{ id: string; tier: number; articles: number | null; originals: number | null; corroborated: number | null }>(
    `SELECT p.id, p.tier, r.articles, r.originals, r.corroborated
       FROM publishers p LEFT JOIN (
         SELECT a.publisher_id, count(*)::int AS articles,
                count(*) FILTER (WHERE a.duplicate_of IS NULL)::int AS originals,
                count(*) FILTER (WHERE s.publisher_count >= 2)::int AS corroborated
           FROM articles a LEFT JOIN stories s ON s.id = a.story_id
          WHERE a.published_at >= $1
          GROUP BY a.publisher_id) r ON r.publisher_id = p.id`,
    [since],
  );
  if (rows.length === 0) return 0;
  const values = rows.map((r) => authorityOf(r.tier, r.articles === null ? null : ({ articles: r.articles, originals: r.originals ?? 0, corroborated: r.corroborated ?? 0 } satisfies PublisherRecord)));
  await sql.query(
    `UPDATE publishers p SET authority = v.authority
       FROM unnest($1::text[], $2::real[]) AS v(id, authority)
      WHERE p.id = v.id AND p.authority IS DISTINCT FROM v.authority`,
    [rows.map((r) => r.id), values],
  );
  return rows.length;
}

/**
 * Publisher authorities held in memory for the lead choice and ranking (a map lookup per
 * article or candidate): `authority` where computed, else the tier's value. Refreshed by `load`.
 */
export class AuthorityTable {
  private byId = new Map<string, number>();

  constructor(private readonly sql: Sql) {}

  get size(): number {
    return this.byId.size;
  }

  /** The publisher's authority, undefined when unknown (callers apply their default). */
  get = (publisher: string): number | undefined => this.byId.get(publisher);

  async load(): Promise<void> {
    const next = new Map<string, number>();
    for (let after = ''; ; ) {
      const { rows } = await this.sql.query<{ id: string; tier: number; authority: number | null }>(
        'SELECT id, tier, authority FROM publishers WHERE id > $1 ORDER BY id LIMIT 10000',
        [after],
      );
      for (const r of rows) next.set(r.id, r.authority ?? TIER_AUTHORITY[r.tier] ?? TIER_AUTHORITY[2]!);
      if (rows.length < 10_000) break;
      after = rows[rows.length - 1]!.id;
    }
    this.byId = next;
  }
}
