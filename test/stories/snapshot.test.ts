import { describe, expect, it } from 'vitest';
import { StoryClusterer, type AddResult } from '../../src/actors/stories/clusterer.js';
import type { ClusterHints } from '../../src/actors/stories/features.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/actors/stories/snapshot-codec.js';
import { syntheticNews, type SyntheticArticle } from '../../bench/fixtures/synthetic-news.js';

const H = 3_600_000;
const END = Date.UTC(2024, 4, 3);

const hintsOf = (a: SyntheticArticle): ClusterHints => ({ entities: a.entities, places: a.places, category: a.category });
const decided = (r: AddResult) => [r.storyId, r.via, r.joined, r.score, r.leadArticleId, r.articleCount, r.leadChanged];

describe('story clusterer snapshot', () => {
  it('restored from a snapshot and the tail, decides every later article as one that replayed everything', () => {
    const all = [...syntheticNews({ articles: 2_600, events: 500, spanMs: 40 * H, end: END, seed: 7 })];
    const stored = all.slice(0, 2_000);
    const fresh = all.slice(2_000);
    // what a live owner decided: the store's rows (article -> story)
    const live = new StoryClusterer();
    const storyOf = stored.map((a) => live.add(a, hintsOf(a)).storyId);

    // a successor without snapshot: the whole window from the store, each into its stored story
    const replayed = new StoryClusterer();
    stored.forEach((a, i) => replayed.add(a, hintsOf(a), storyOf[i]));

    // a successor with the snapshot its predecessor took after 1,500 rows, then the tail from a
    // little before the snapshot (the overlap is known and changes nothing)
    const before = new StoryClusterer();
    stored.slice(0, 1_500).forEach((a, i) => before.add(a, hintsOf(a), storyOf[i]));
    const bytes = encodeSnapshot(before.snapshot());
    // the predecessor goes on: its snapshot is a copy
    before.add(fresh[0]!, hintsOf(fresh[0]!));
    const restored = new StoryClusterer({ background: false });
    restored.restore(decodeSnapshot(bytes));
    expect(restored.activeCount).toBeGreaterThan(0);
    let known = 0;
    for (let i = 1_400; i < stored.length; i++) if (restored.add(stored[i]!, hintsOf(stored[i]!), storyOf[i]).via === 'known') known++;
    expect(known).toBe(100);
    expect(restored.activeCount).toBe(replayed.activeCount);
    expect(restored.articleCount).toBe(replayed.articleCount);

    // new articles: the same decisions, scores and stories
    let joined = 0;
    for (const a of fresh) {
      const x = replayed.add(a, hintsOf(a));
      const y = restored.add(a, hintsOf(a));
      expect(decided(y)).toEqual(decided(x));
      if (x.via === 'score') joined++;
      expect(restored.summary(y.storyId)).toEqual(replayed.summary(x.storyId));
    }
    // the test means something: most new articles join stories by score
    expect(joined).toBeGreaterThan(fresh.length / 2);
    // and the whole state is the same (equal values; shared empty arrays may be shared differently)
    expect(decodeSnapshot(encodeSnapshot(restored.snapshot()))).toEqual(decodeSnapshot(encodeSnapshot(replayed.snapshot())));
  });

  it('refuses a snapshot of another window (the owner replays the store instead)', () => {
    const a = new StoryClusterer({ windowMs: 24 * H, background: false });
    const b = new StoryClusterer({ windowMs: 48 * H, background: false });
    expect(() => b.restore(decodeSnapshot(encodeSnapshot(a.snapshot())))).toThrow(/does not fit/);
  });
});
