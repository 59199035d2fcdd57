import { SHARD_FENCES_DDL } from '../../runtime/fence.js';
import type { Migration } from '../../runtime/migrate.js';
import type { Sql } from '../../runtime/sql.js';
import { pushAlerts } from './push-migrations.js';
import { readerLists } from './reader-list-migrations.js';
import { searchByLanguage } from './search-language-migrations.js';
import { searchCommonLexemes, searchFunction, searchGroupedByStory, searchWithSecondaryCategory } from './search-migrations.js';

export { COMMON_QUERY_FREQ } from './search-migrations.js';

/**
 * The news schema (DESIGN §5): metadata and snippets only, never full article text.
 * Append new migrations; never edit a shipped one.
 */

const publishers = `
CREATE TABLE publishers (
  id text PRIMARY KEY,
  name text NOT NULL,
  feed_url text NOT NULL UNIQUE,
  site_url text,
  country text,                       -- ISO 3166-1 alpha-2
  region text,                        -- edition: us, uk, eu, apac, latam, mea, global
  category text,                      -- the publisher's section, a hint for topic
  tier smallint NOT NULL DEFAULT 2,   -- source authority, 1 = highest
  poll_interval_seconds integer NOT NULL DEFAULT 900,
  etag text,
  last_modified text,
  next_poll_at timestamptz,
  last_polled_at timestamptz,
  last_success_at timestamptz,
  consecutive_failures integer NOT NULL DEFAULT 0,
  circuit text NOT NULL DEFAULT 'closed' CHECK (circuit IN ('closed', 'open', 'half_open')),
  circuit_reason text,
  fetch_count bigint NOT NULL DEFAULT 0,
  not_modified_count bigint NOT NULL DEFAULT 0,
  error_count bigint NOT NULL DEFAULT 0,
  article_count bigint NOT NULL DEFAULT 0,
  websub_hub text,
  websub_topic text,
  websub_secret text,
  websub_lease_expires_at timestamptz,
  state jsonb NOT NULL DEFAULT '{}'::jsonb,   -- the publisher actor's own persisted state
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX publishers_next_poll_idx ON publishers (next_poll_at);
CREATE INDEX publishers_country_idx ON publishers (country);
`;

// Partitioned by month; the primary and unique keys must include the partition key.
// url_hash uniqueness is therefore per instant; exact dedup looks it up by url_hash alone (through
// its own index until migration 6, through the unique index's leading column since).
const articles = `
CREATE TABLE articles (
  id text NOT NULL,
  url text NOT NULL,
  url_hash text NOT NULL,
  simhash bigint,
  title text NOT NULL,
  snippet varchar(300),
  thumbnail_url text,
  publisher_id text NOT NULL,
  published_at timestamptz NOT NULL,
  ingested_at timestamptz NOT NULL DEFAULT now(),
  category text,
  region text,
  language text,
  story_id text,
  duplicate_of text,
  entities jsonb NOT NULL DEFAULT '[]'::jsonb,
  places jsonb NOT NULL DEFAULT '[]'::jsonb,
  search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A') ||
    setweight(to_tsvector('english'::regconfig, coalesce(snippet, '')), 'B')
  ) STORED,
  PRIMARY KEY (id, published_at),
  UNIQUE (url_hash, published_at)
) PARTITION BY RANGE (published_at);
CREATE TABLE articles_default PARTITION OF articles DEFAULT;
CREATE INDEX articles_url_hash_idx ON articles (url_hash);
CREATE INDEX articles_published_idx ON articles (published_at DESC, id DESC);
CREATE INDEX articles_story_idx ON articles (story_id, published_at DESC);
CREATE INDEX articles_publisher_idx ON articles (publisher_id, published_at DESC);
CREATE INDEX articles_region_category_idx ON articles (region, category, published_at DESC);
CREATE INDEX articles_search_idx ON articles USING gin (search);

-- Creates the month partition holding ts (idempotent). Rows of that month that already landed in
-- the default partition are moved into the new one, since attaching over them would fail.
CREATE FUNCTION ensure_articles_partition(ts timestamptz) RETURNS text LANGUAGE plpgsql AS $fn$
DECLARE
  lo timestamptz := date_trunc('month', ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
  hi timestamptz := lo + interval '1 month';
  part text := 'articles_' || to_char(lo AT TIME ZONE 'UTC', 'YYYY_MM');
  cols text;
BEGIN
  -- two nodes may ask for the same month at once; the second then finds it attached
  PERFORM pg_advisory_xact_lock(7324112001);
  IF EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
             WHERE i.inhparent = 'articles'::regclass AND c.relname = part) THEN
    RETURN part;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE articles INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING CONSTRAINTS)', part);
  SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO cols
    FROM pg_attribute WHERE attrelid = 'articles'::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = '';
  EXECUTE format('WITH moved AS (DELETE FROM articles_default WHERE published_at >= %L AND published_at < %L RETURNING %s) INSERT INTO %I (%s) SELECT * FROM moved',
                 lo, hi, cols, part, cols);
  EXECUTE format('ALTER TABLE articles ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, lo, hi);
  RETURN part;
END
$fn$;
`;

const stories = `
CREATE TABLE stories (
  id text PRIMARY KEY,
  title text NOT NULL,
  lead_article_id text,
  article_count integer NOT NULL DEFAULT 0,
  publisher_count integer NOT NULL DEFAULT 0,
  first_seen timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  category text,
  regions text[] NOT NULL DEFAULT '{}',
  entities jsonb NOT NULL DEFAULT '[]'::jsonb,
  score double precision NOT NULL DEFAULT 0
);
CREATE INDEX stories_updated_idx ON stories (updated_at DESC, id DESC);
CREATE INDEX stories_category_score_idx ON stories (category, score DESC, id DESC);
CREATE INDEX stories_regions_idx ON stories USING gin (regions);
`;

const clicksAndDeadLetters = `
CREATE TABLE clicks (
  id bigserial PRIMARY KEY,
  article_id text NOT NULL,
  story_id text,
  reader text,                         -- hashed reader id or IP, never the raw value
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX clicks_article_idx ON clicks (article_id, at DESC);
CREATE INDEX clicks_at_idx ON clicks (at DESC);

CREATE TABLE dead_letters (
  id bigserial PRIMARY KEY,
  address text NOT NULL,
  type text NOT NULL,
  payload jsonb,
  error text NOT NULL,
  attempts integer NOT NULL DEFAULT 1,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dead_letters_at_idx ON dead_letters (at DESC);
CREATE INDEX dead_letters_address_idx ON dead_letters (address);
`;

// Feed snapshots normally live in the cache; this table keeps cursors working while it is down.
const feedSnapshots = `
CREATE TABLE feed_snapshots (
  id text PRIMARY KEY,
  body jsonb NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX feed_snapshots_expires_idx ON feed_snapshots (expires_at);
`;

// The dedup index's durable side: each decided fingerprint with the coordinator's handle, so
// shard tables and the coordinator rebuild the same index after a restart or a move.
const fingerprints = `
CREATE TABLE fingerprints (
  handle bigint PRIMARY KEY,
  article_id text NOT NULL,
  root bigint NOT NULL,
  hi integer NOT NULL,
  lo integer NOT NULL,
  published_at timestamptz NOT NULL,
  sketch bytea,
  has_text boolean NOT NULL DEFAULT false
);
CREATE INDEX fingerprints_published_idx ON fingerprints (published_at);
`;

// Exact dedup looks a URL up by `url_hash` alone, which the unique (url_hash, published_at) index
// answers by its leading column (and in the order the lookup wants); a second index on url_hash
// only cost every insert its upkeep.
const dropRedundantUrlHashIndex = `
DROP INDEX IF EXISTS articles_url_hash_idx;
`;

// Cheaper ingest writes (every index and every generated value is paid on each insert or story rewrite):
// - articles_publisher_idx serves no query (none lists a publisher's articles), so it only cost upkeep.
//   (articles_region_category_idx stays: search ANDs it with the GIN bitmap for a common word in one
//   edition and category.)
// - stories_updated_idx serves no query (rankedStories' optional updated_at bound is a filter beside its
//   score order), and the GIN on regions cannot serve the `$1 = ANY(regions)` the feed asks, so both only
//   cost every story rewrite (a story is rewritten with each batch it grows in, never HOT: its score moves).
// - duplicates never show in search (it asks `duplicate_of IS NULL`), so they get no search vector: the
//   tsvector was a third of an article insert, and wire copies are a large share of the articles. The
//   vector is recomputed when a row is updated, so one marked a duplicate later loses it.
//   search_common_lexemes' shares are then shares of the searchable articles (statistics leave out NULLs).
// Recreating the generated column rewrites the article partitions once.
const cheaperIngestWrites = `
DROP INDEX IF EXISTS articles_publisher_idx;
DROP INDEX IF EXISTS stories_updated_idx;
DROP INDEX IF EXISTS stories_regions_idx;
ALTER TABLE articles DROP COLUMN search;
ALTER TABLE articles ADD COLUMN search tsvector GENERATED ALWAYS AS (
  CASE WHEN duplicate_of IS NULL THEN
    setweight(to_tsvector('english'::regconfig, coalesce(title, '')), 'A') ||
    setweight(to_tsvector('english'::regconfig, coalesce(snippet, '')), 'B')
  END
) STORED;
CREATE INDEX articles_search_idx ON articles USING gin (search);
`;

// Breaking news: the detector's active set, readable by every API node (`GET /v1/breaking`, the
// feed boost, WebSocket subscribers joining late). Rows stay after a story cools down (`ended_at`)
// for a while, so a restarted detector neither forgets nor re-announces what it already decided.
const breakingStories = `
CREATE TABLE breaking_stories (
  story_id text PRIMARY KEY,
  since timestamptz NOT NULL,
  last_spike_at timestamptz NOT NULL,
  ended_at timestamptz,
  regions text[] NOT NULL DEFAULT '{}',
  signal text NOT NULL,
  articles integer NOT NULL,
  publishers integer NOT NULL,
  baseline double precision NOT NULL
);
CREATE INDEX breaking_stories_active_idx ON breaking_stories (since DESC) WHERE ended_at IS NULL;
`;

// Readers: a reader row holds only explicit interests; reading history is the clicks
// table, now keyed by a stable reader id (a hash of the reader's token) and carrying the clicked
// article's publisher, so a history summary needs no look-up in the partitioned articles table.
// Clicks are read per reader (history) and per time (trending, retention: clicks_at_idx).
const readers = `
CREATE TABLE readers (
  id text PRIMARY KEY,
  follow jsonb NOT NULL DEFAULT '{}'::jsonb,
  hide jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
ALTER TABLE clicks ADD COLUMN publisher_id text;
CREATE INDEX clicks_reader_idx ON clicks (reader, at DESC) WHERE reader IS NOT NULL;
`;

// Source authority in (0, 1], recomputed from the publisher's tier and record (see
// actors/publisher/authority.ts); NULL until first computed (readers then use the tier alone).
const publisherAuthority = `
ALTER TABLE publishers ADD COLUMN authority real;
`;

// A reader's profile in one call with a plan kept per session (plpgsql caches it): planning the
// equivalent statement cost ~1 ms against 0.2 ms to run it, and a node loads one per new reader.
const readerLoad = `
CREATE FUNCTION reader_load(p_id text, p_limit integer) RETURNS json LANGUAGE plpgsql STABLE AS $fn$
DECLARE
  out json;
BEGIN
  SELECT json_build_object(
           'follow', r.follow,
           'hide', r.hide,
           'history', (SELECT json_agg(json_build_object('publisher_id', h.publisher_id, 'category', h.category, 'entities', h.entities))
                         FROM (SELECT c.publisher_id, s.category, COALESCE(s.entities, '[]'::jsonb) AS entities
                                 FROM clicks c LEFT JOIN stories s ON s.id = c.story_id
                                WHERE c.reader = p_id ORDER BY c.at DESC LIMIT p_limit) h),
           'n', (SELECT count(*)::int FROM clicks WHERE reader = p_id))
    INTO out
    FROM (SELECT 1) one LEFT JOIN readers r ON r.id = p_id;
  RETURN out;
END
$fn$;
`;

// Articles ingest set aside (refused by the CPU stage, the clusterer or the database) with the
// reason, so one bad article never holds the others back and an operator can see what went.
// One row per URL and reason (`url_key`): a redelivered batch counts an attempt.
const rejectedArticles = `
CREATE TABLE rejected_articles (
  id bigserial PRIMARY KEY,
  url_key text NOT NULL UNIQUE,
  url text NOT NULL,
  publisher_id text,
  reason text NOT NULL,
  code text NOT NULL,
  message text NOT NULL,
  article text,
  attempts integer NOT NULL DEFAULT 1,
  first_at timestamptz NOT NULL DEFAULT now(),
  last_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX rejected_articles_last_idx ON rejected_articles (last_at);
`;

// A story's editions split in two: where it happened (its home, ranked first there) and where
// it is carried by its coverage (`regions` holds both, home first).
const storyHomeRegions = `
ALTER TABLE stories ADD COLUMN IF NOT EXISTS home_regions text[] NOT NULL DEFAULT '{}';
`;

// A primary category plus an optional secondary one (a business story about a football club).
// Added without a default: existing rows read null (no second category), and no row is rewritten.
const secondaryCategory = `
ALTER TABLE articles ADD COLUMN IF NOT EXISTS secondary_category text;
`;

// Story counts kept exact (story-counts.ts): stories whose counts retention must redo after it
// dropped a month of articles (marked in the drop's transaction, so a node dying after the drop
// leaves the work to the next), and a BRIN index on ingested_at for the periodic check's look at
// the stories written lately (a few pages per partition; ingested_at grows with the heap).
const storyRecounts = `
CREATE TABLE story_recounts (story_id text PRIMARY KEY);
CREATE INDEX articles_ingested_brin ON articles USING brin (ingested_at);
`;

// Story clusterer snapshots (story-snapshots.ts): the story owner's whole state, taken every few
// minutes, so a new owner loads it and replays only the articles stored since instead of the
// window. Stored in chunks (a value of hundreds of MB would not fit a string on its way in).
const storySnapshots = `
CREATE TABLE story_snapshots (
  id bigserial PRIMARY KEY,
  shard text NOT NULL,
  taken_at timestamptz NOT NULL DEFAULT now(),
  watermark timestamptz NOT NULL,
  chunks int NOT NULL,
  bytes bigint NOT NULL,
  stories int NOT NULL,
  articles int NOT NULL,
  complete boolean NOT NULL DEFAULT false
);
CREATE INDEX story_snapshots_latest ON story_snapshots (shard, id DESC) WHERE complete;
CREATE TABLE story_snapshot_chunks (
  snapshot_id bigint NOT NULL REFERENCES story_snapshots (id) ON DELETE CASCADE,
  seq int NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (snapshot_id, seq)
);
ALTER TABLE story_snapshot_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
`;

/** The news schema, in order. */
export const newsMigrations: readonly Migration[] = [
  { version: 1, name: 'news schema: publishers, articles by month, stories, clicks, dead letters', sql: publishers + articles + stories + clicksAndDeadLetters },
  { version: 2, name: 'feed snapshots for cursors while the cache is down', sql: feedSnapshots },
  { version: 3, name: 'dedup fingerprints with coordinator handles', sql: fingerprints },
  { version: 4, name: 'search as one planned-once function returning the page', sql: searchFunction },
  { version: 5, name: 'search plans queries with common words for their literal', sql: searchCommonLexemes },
  { version: 6, name: 'drop the url_hash index the unique (url_hash, published_at) index makes redundant', sql: dropRedundantUrlHashIndex },
  { version: 7, name: 'cheaper ingest writes: drop indexes no query uses, no search vector for duplicates', sql: cheaperIngestWrites },
  { version: 8, name: 'rejected articles: what ingest set aside, with the reason', sql: rejectedArticles },
  { version: 18, name: 'breaking stories: the active set and its recent history', sql: breakingStories },
  { version: 21, name: 'readers: interests by stable reader id, clicks by reader with their publisher', sql: readers },
  { version: 22, name: 'publisher authority from tier and record', sql: publisherAuthority },
  { version: 23, name: 'reader profile load as one planned-once function', sql: readerLoad },
  { version: 25, name: 'search answers one result per story, with how many of its articles matched', sql: searchGroupedByStory },
  { version: 27, name: 'stories know their home editions (where they happened) besides the editions carrying them', sql: storyHomeRegions },
  { version: 30, name: 'articles keep an optional secondary category', sql: secondaryCategory },
  { version: 31, name: 'search hits carry the secondary category', sql: searchWithSecondaryCategory },
  { version: 32, name: 'shard fences: writes carrying a deposed shard owner\'s decisions are refused', sql: SHARD_FENCES_DDL },
  { version: 34, name: 'stories marked for a recount, and articles by when they were written', sql: storyRecounts },
  { version: 40, name: 'push alerts: VAPID keys, subscriptions, marks, the delivery queue, daily counts', sql: pushAlerts },
  { version: 41, name: 'story clusterer snapshots: a new story owner loads the latest and replays only the tail', sql: storySnapshots },
  { version: 45, name: 'readers keep saved stories, stories read, private feed keys and a Local city', sql: readerLists },
  { version: 46, name: 'search in each article\'s language: a text-search configuration per language, lang= on search', sql: searchByLanguage },
];

/** Ensures month partitions exist for the month of `now` and the `monthsAhead` following ones. */
export async function ensureArticlePartitions(sql: Sql, now: () => number, monthsAhead = 1): Promise<string[]> {
  const names: string[] = [];
  const d = new Date(now());
  for (let i = 0; i <= monthsAhead; i++) {
    const month = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + i, 1));
    const { rows } = await sql.query<{ name: string }>('SELECT ensure_articles_partition($1::timestamptz) AS name', [month.toISOString()]);
    names.push(rows[0]!.name);
  }
  return names;
}
