/**
 * The polls running now, by publisher id, so the node can end them when it gives their publishers
 * away. A poll's fetch may take a minute (slow servers, the fetcher's total deadline), and a
 * publisher handed to another node must not be polled there while the old node's request is still
 * open: on a shard move the old owner aborts its polls (the fetch rejects at once with
 * FETCH_ABORTED), waits for each to save its state (the poll's start time included), and only then
 * lets the shard go. The next owner reads that start time and keeps the minimum interval after it.
 */
export class PollsInFlight {
  private readonly polls = new Map<string, { ctl: AbortController; done: Promise<void>; end: () => void }>();

  /** polls running now */
  get size(): number {
    return this.polls.size;
  }

  /** Registers a poll of `id`; call `end` once its state is saved (exactly once). */
  begin(id: string): { signal: AbortSignal; end: () => void } {
    // an actor polls one message at a time, so a second begin for one id means the first was lost
    this.polls.get(id)?.end();
    const ctl = new AbortController();
    let end!: () => void;
    const done = new Promise<void>((r) => (end = r));
    const entry = { ctl, done, end: () => {} };
    entry.end = () => {
      if (this.polls.get(id) === entry) this.polls.delete(id);
      end();
    };
    this.polls.set(id, entry);
    return { signal: ctl.signal, end: entry.end };
  }

  /** whether a poll of `id` runs now */
  running(id: string): boolean {
    return this.polls.has(id);
  }

  /**
   * Aborts the polls of these publishers and resolves once each has ended (its state saved), or
   * after `timeoutMs`; resolves with the ids still running then.
   */
  async abort(ids: Iterable<string>, reason: Error, timeoutMs: number): Promise<string[]> {
    const waits: Promise<void>[] = [];
    const running: string[] = [];
    for (const id of ids) {
      const p = this.polls.get(id);
      if (!p) continue;
      running.push(id);
      p.ctl.abort(reason);
      waits.push(p.done);
    }
    if (waits.length === 0) return [];
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(waits), new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
    return running.filter((id) => this.polls.has(id));
  }
}
