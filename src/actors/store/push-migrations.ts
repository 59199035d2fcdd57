/**
 * The push-alert tables (Web Push, RFC 8030/8291/8292). Subscriptions are what a browser gave us
 * and what its reader wants to hear about; marks remember what each subscription was told, so
 * every API node may evaluate the same live event and still enqueue an alert once; the queue is
 * the durable delivery queue (claimed with SKIP LOCKED and a lease); sent counts a reader's
 * alerts per local day for the daily cap.
 */
export const pushAlerts = `
CREATE TABLE push_vapid (
  id smallint PRIMARY KEY CHECK (id = 1),
  public_key text NOT NULL,           -- base64url of the 65-byte uncompressed P-256 point
  private_key text NOT NULL,          -- base64url of the 32-byte scalar
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE push_subscriptions (
  id text PRIMARY KEY,
  reader_id text NOT NULL,
  endpoint text NOT NULL UNIQUE,
  p256dh text NOT NULL,
  auth text NOT NULL,
  stop_token text NOT NULL,           -- the one-click stop URL's secret
  keys text[] NOT NULL,               -- what alerts: 'b', 's:<story>', 'c:<category>', 'e:<name>', 'l:<place code>'
  threshold integer NOT NULL,         -- articles a story of a followed topic or place needs
  prefs jsonb NOT NULL,               -- the preferences as given (quiet hours, time zone, cap, lists)
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_subscriptions_reader_idx ON push_subscriptions (reader_id, created_at);
CREATE INDEX push_subscriptions_keys_idx ON push_subscriptions USING gin (keys);
CREATE TABLE push_marks (
  subscription_id text NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
  key text NOT NULL,                  -- 'b:<story>', 's:<story>', 't:<story>'
  count integer NOT NULL,             -- the story's articles when last alerted
  at timestamptz NOT NULL,
  again_at timestamptz NOT NULL,      -- no new alert under this key before then
  PRIMARY KEY (subscription_id, key)
);
CREATE INDEX push_marks_at_idx ON push_marks (at);
CREATE TABLE push_queue (
  id bigserial PRIMARY KEY,
  subscription_id text NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('breaking', 'story', 'topic')),
  alert_key text NOT NULL,            -- the same alert on several devices of a reader counts once
  story_id text NOT NULL,
  item jsonb NOT NULL,                -- what the notification shows of the story
  not_before timestamptz NOT NULL,
  locked_until timestamptz,           -- claimed by a node until then
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL
);
CREATE INDEX push_queue_due_idx ON push_queue (not_before, id);
CREATE INDEX push_queue_subscription_idx ON push_queue (subscription_id);
CREATE TABLE push_sent (
  reader_id text NOT NULL,
  day integer NOT NULL,               -- the reader's local day (days since 1970-01-01 in its time zone)
  alert_key text NOT NULL,
  PRIMARY KEY (reader_id, day, alert_key)
);
`;
