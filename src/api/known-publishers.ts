/**
 * Which publisher ids exist, remembered so a WebSub callback costs no SQL query once its id has
 * been looked up: a bounded LRU map with an injected clock. Publishers added or removed through
 * the node (admin API, OPML import, catalogue; on any node of a cluster) update it at once
 * (`changed`); the entries also age out, so a row added or deleted behind the node's back (SQL,
 * `import-opml` against its database) is seen within `unknownTtlMs` / `knownTtlMs`.
 */
export interface KnownPublishersOptions {
  /** entries kept at most (least recently used go first; default 20,000) */
  max?: number;
  /** how long an id found is trusted (default 10 minutes) */
  knownTtlMs?: number;
  /** how long an id not found is trusted (default 10 s, as publishers added behind a node's back) */
  unknownTtlMs?: number;
  now?: () => number;
}

export class KnownPublishers {
  private readonly entries = new Map<string, { known: boolean; at: number }>();
  private readonly inFlight = new Map<string, Promise<boolean>>();
  /** bumped by `changed`: a lookup that started before a change does not overwrite it */
  private epoch = 0;
  private readonly max: number;
  private readonly knownTtlMs: number;
  private readonly unknownTtlMs: number;
  private readonly now: () => number;
  /** SQL lookups made (for tests and metrics) */
  lookups = 0;

  constructor(
    private readonly exists: (id: string) => Promise<boolean>,
    opts: KnownPublishersOptions = {},
  ) {
    this.max = opts.max ?? 20_000;
    this.knownTtlMs = opts.knownTtlMs ?? 10 * 60_000;
    this.unknownTtlMs = opts.unknownTtlMs ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  /** What is known of `id` without a lookup: true or false, or undefined when it has to be looked up. */
  cached(id: string): boolean | undefined {
    const e = this.entries.get(id);
    if (e === undefined) return undefined;
    if (this.now() - e.at > (e.known ? this.knownTtlMs : this.unknownTtlMs)) {
      this.entries.delete(id);
      return undefined;
    }
    // most recently used last: eviction takes the front
    this.entries.delete(id);
    this.entries.set(id, e);
    return e.known;
  }

  /** Looks `id` up (one query however many callbacks ask at once) and remembers the answer. */
  lookup(id: string): Promise<boolean> {
    const hit = this.cached(id);
    if (hit !== undefined) return Promise.resolve(hit);
    let p = this.inFlight.get(id);
    if (p !== undefined) return p;
    const epoch = this.epoch;
    this.lookups++;
    p = this.exists(id).then(
      (known) => {
        this.inFlight.delete(id);
        if (epoch === this.epoch) this.remember(id, known);
        return known;
      },
      (err: unknown) => {
        this.inFlight.delete(id);
        throw err;
      },
    );
    this.inFlight.set(id, p);
    return p;
  }

  /** Publishers added or removed (admin API, OPML import, a cluster's publishers-changed event). */
  changed(change: { added?: readonly string[]; removed?: readonly string[] }): void {
    this.epoch++;
    for (const id of change.added ?? []) this.remember(id, true);
    for (const id of change.removed ?? []) this.remember(id, false);
  }

  get size(): number {
    return this.entries.size;
  }

  private remember(id: string, known: boolean): void {
    this.entries.delete(id);
    this.entries.set(id, { known, at: this.now() });
    while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}
