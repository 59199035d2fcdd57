import { readFile } from 'node:fs/promises';
import { regionForCountry } from '../enrich/gazetteer.js';
import { addPublishers, type NewPublisher } from '../store/publishers.js';
import type { Sql } from '../../runtime/sql.js';
import { OpmlInvalidError } from './errors.js';
import { parseOpml, publisherIdFor, type OpmlDocument, type OpmlProblem } from './opml.js';

/**
 * Adding publishers from a list (OPML, the demo's simulator): one row shape and one id formula
 * for every way in, so importing the same feed twice adds nothing.
 */

const BATCH = 500;

/** What a source list says about one feed. */
export interface FeedListing {
  feed_url: string;
  name: string;
  site_url?: string | null;
  country?: string | null;
  category?: string | null;
}

/** The publishers row for a listed feed: the stable id, and the region its country maps to. */
export function publisherRow(f: FeedListing): NewPublisher {
  const country = f.country ?? null;
  return {
    id: publisherIdFor(f.feed_url),
    name: f.name,
    feed_url: f.feed_url,
    site_url: f.site_url ?? null,
    country,
    region: country ? regionForCountry(country) : null,
    category: f.category ?? null,
  };
}

export interface ImportSummary {
  feeds: number;
  added: number;
  existing: number;
  problems: OpmlProblem[];
  /** the ids of the publishers actually added */
  ids: string[];
}

/** True when the document could not be read as well-formed XML (it was read leniently). */
export function isBroken(doc: OpmlDocument): boolean {
  return doc.problems.some((p) => p.reason === 'malformed-xml');
}

/** Stores the parsed feeds in batches; `onBatch` reports progress. `country` fills in feeds that name none. */
export async function importFeeds(sql: Sql, doc: OpmlDocument, country: string | null, onBatch: (done: number) => void = () => {}): Promise<ImportSummary> {
  const rows = doc.feeds.map((f) => publisherRow({ ...f, country: f.country ?? country }));
  const ids: string[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    ids.push(...(await addPublishers(sql, rows.slice(i, i + BATCH))));
    onBatch(Math.min(rows.length, i + BATCH));
  }
  return { feeds: rows.length, added: ids.length, existing: rows.length - ids.length, problems: doc.problems, ids };
}

/**
 * Reads, parses and imports an OPML file. A file that cannot be read, is not OPML, or is broken
 * and yields no feed at all throws OpmlInvalidError (nothing to import is then a mistake, not a list).
 */
export async function importOpmlFile(sql: Sql, file: string): Promise<ImportSummary> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new OpmlInvalidError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, err);
  }
  const doc = parseOpml(text);
  if (isBroken(doc) && doc.feeds.length === 0) throw new OpmlInvalidError(`${file} is not well-formed and no feed could be read from it`);
  return importFeeds(sql, doc, null);
}
