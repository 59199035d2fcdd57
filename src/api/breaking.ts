import { activeBreaking, type BreakingRow } from '../actors/store/breaking.js';
import { listedItem, type CachedStory } from '../actors/store/feed-items.js';
import type { BreakingItem, LiveEventSource } from '../actors/store/live-events.js';
import { describeError } from '../runtime/errors.js';
import { silentLogger, type Logger } from '../runtime/log.js';
import type { Sql } from '../runtime/sql.js';

/** A story breaking now. */
export interface BreakingEntry {
  story_id: string;
  /** ISO instant the story started breaking */
  breaking_since: string;
  /** editions that carry it */
  regions: string[];
}

/**
 * What feeds need to put breaking stories first: the stories breaking now in an edition
 * (`global` = every edition), newest first. The personalised feed takes one of these.
 */
export interface BreakingProvider {
  breakingStories(region: string): Promise<BreakingEntry[]>;
}

export interface BreakingServiceOptions {
  sql: Sql;
  /** story entries by id, in order (FeedService.stories: cache first, else SQL) */
  stories: (ids: string[]) => Promise<CachedStory[]>;
  /** how long the active set is reused before it is read again (default 5 s) */
  ttlMs?: number;
  now?: () => number;
  log?: Logger;
}

/**
 * The active breaking set as every API node reads it: from the `breaking_stories` table (the
 * detector writes it, on whichever node runs it), kept in process for a few seconds and dropped
 * at once when a breaking live event arrives.
 */
export class BreakingService implements BreakingProvider {
  private cached: { rows: BreakingRow[]; at: number } | null = null;
  private loading: Promise<BreakingRow[]> | null = null;
  private generation = 0;
  private unsubscribe: (() => Promise<void>) | null = null;
  private readonly now: () => number;
  private readonly log: Logger;

  constructor(private readonly o: BreakingServiceOptions) {
    this.now = o.now ?? Date.now;
    this.log = o.log ?? silentLogger;
  }

  /** Drop the cached set when any node announces a breaking change. */
  async start(source: LiveEventSource): Promise<void> {
    try {
      this.unsubscribe = await source.subscribe((e) => {
        if (e.type === 'breaking') this.invalidate();
      });
    } catch (err) {
      this.log.warn({ err: describeError(err) }, 'breaking events subscription failed; the set refreshes by time');
    }
  }

  async stop(): Promise<void> {
    await this.unsubscribe?.().catch(() => {});
  }

  invalidate(): void {
    this.cached = null;
    this.generation++;
  }

  private async rows(): Promise<BreakingRow[]> {
    const c = this.cached;
    if (c && this.now() - c.at < (this.o.ttlMs ?? 5_000)) return c.rows;
    if (this.loading) return this.loading;
    const gen = this.generation;
    this.loading = activeBreaking(this.o.sql).then(
      (rows) => {
        this.loading = null;
        if (gen === this.generation) this.cached = { rows, at: this.now() };
        return rows;
      },
      (err: unknown) => {
        this.loading = null;
        throw err;
      },
    );
    return this.loading;
  }

  async breakingStories(region: string): Promise<BreakingEntry[]> {
    const rows = await this.rows();
    return rows
      .filter((r) => region === 'global' || r.regions.includes(region))
      .map((r) => ({ story_id: r.story_id, breaking_since: new Date(r.since).toISOString(), regions: r.regions }));
  }

  /** Story ids breaking in an edition, newest first; none when the set cannot be read (feeds still render). */
  async ids(region: string): Promise<string[]> {
    try {
      return (await this.breakingStories(region)).map((b) => b.story_id);
    } catch (err) {
      this.log.debug({ err: describeError(err) }, 'breaking set unavailable');
      return [];
    }
  }

  /**
   * Feed items of the stories breaking in an edition, with `breaking_since` (`GET /v1/breaking`):
   * each labelled with that edition (without one, with the story's home edition).
   */
  async items(region: string): Promise<BreakingItem[]> {
    const entries = await this.breakingStories(region);
    const since = new Map(entries.map((e) => [e.story_id, e.breaking_since]));
    const stories = await this.o.stories(entries.map((e) => e.story_id));
    return stories.map((s) => ({ ...listedItem(s, region), breaking_since: since.get(s.item.story_id)! }));
  }
}
