/**
 * What a reader keeps besides interests (issue 24): saved stories, stories read, private feed
 * keys and settings (the Local city). Keyed by the stable reader id (a hash of the reader's
 * token), so they follow the reader to every node. No foreign key to stories: a saved story
 * outlives retention as an id, and is shown while the story exists.
 */
export const readerLists = `
CREATE TABLE reader_saved (
  reader_id text NOT NULL,
  story_id text NOT NULL,
  saved_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (reader_id, story_id)
);
CREATE INDEX reader_saved_recent_idx ON reader_saved (reader_id, saved_at DESC);
CREATE TABLE reader_reads (
  reader_id text NOT NULL,
  story_id text NOT NULL,
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (reader_id, story_id)
);
CREATE INDEX reader_reads_recent_idx ON reader_reads (reader_id, read_at DESC);
CREATE TABLE reader_feed_keys (
  key_hash text PRIMARY KEY,          -- SHA-256 of the secret in the private feed URL
  reader_id text NOT NULL UNIQUE,     -- one live key per reader: a new one revokes the old
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE reader_settings (
  reader_id text PRIMARY KEY,
  city text,                          -- the Local section's city (a gazetteer city id)
  updated_at timestamptz NOT NULL DEFAULT now()
);
`;
