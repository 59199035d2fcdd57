import { readFileSync } from 'node:fs';
import { EDITIONS } from '../model/index.js';
import { addPublishers, type NewPublisher } from '../store/publishers.js';
import type { Sql } from '../../runtime/sql.js';
import { publisherIdFor } from './opml.js';

/**
 * The catalogue of real news publishers shipped in config/publishers/catalogue.json (built by
 * bench/build-catalogue.ts from CC0 lists): what a new node can start with so that, with
 * internet access, it shows real news (`start --catalogue EDITION|all`, or the first-run screen
 * through `POST /v1/catalogue`).
 */
export interface CatalogueEntry {
  name: string;
  feed_url: string;
  /** ISO 3166-1 alpha-2, null for feeds of no one country */
  country: string | null;
  /** edition: us, uk, eu, apac, latam, mea, global */
  region: string;
  category: string | null;
}

export { EDITIONS };
/** what `--catalogue` and `POST /v1/catalogue` take */
export const CATALOGUE_CHOICES: readonly string[] = ['all', ...EDITIONS];

let cached: CatalogueEntry[] | null = null;

/** The shipped catalogue (read once). */
export function loadCatalogue(path?: string): CatalogueEntry[] {
  if (cached && path === undefined) return cached;
  const doc = JSON.parse(readFileSync(path ?? new URL('../../../config/publishers/catalogue.json', import.meta.url), 'utf8')) as { publishers: CatalogueEntry[] };
  if (path === undefined) cached = doc.publishers;
  return doc.publishers;
}

/**
 * The feeds for a choice: an edition's own publishers plus the global ones (world news, and
 * the topic feeds), so any edition is a whole front page; `all` is everything.
 */
export function catalogueFor(choice: string, entries: readonly CatalogueEntry[] = loadCatalogue()): CatalogueEntry[] {
  if (choice === 'all') return [...entries];
  return entries.filter((e) => e.region === choice || e.region === 'global');
}

/**
 * Feeds per edition: `publishers` its own, `adds` what choosing it adds (its own plus the global
 * ones, as catalogueFor gives them): what a button offering the edition must say.
 */
export function catalogueSummary(entries: readonly CatalogueEntry[] = loadCatalogue()): { region: string; publishers: number; adds: number }[] {
  return EDITIONS.map((region) => ({ region, publishers: entries.filter((e) => e.region === region).length, adds: catalogueFor(region, entries).length }));
}

/** Adds a choice's feeds as publishers (existing feed URLs are left alone); returns the ids added. */
export async function importCatalogue(sql: Sql, choice: string, entries?: readonly CatalogueEntry[]): Promise<{ added: string[]; offered: number }> {
  const list = catalogueFor(choice, entries);
  const rows: NewPublisher[] = list.map((e) => ({
    id: publisherIdFor(e.feed_url), name: e.name, feed_url: e.feed_url, country: e.country, region: e.region, category: e.category,
  }));
  const added: string[] = [];
  for (let i = 0; i < rows.length; i += 500) added.push(...(await addPublishers(sql, rows.slice(i, i + 500))));
  return { added, offered: rows.length };
}

/** How many publishers the database holds (the first-run question: none yet?). */
export async function publisherCount(sql: Sql): Promise<number> {
  const { rows } = await sql.query<{ n: number }>('SELECT count(*)::int AS n FROM publishers');
  return rows[0]?.n ?? 0;
}
