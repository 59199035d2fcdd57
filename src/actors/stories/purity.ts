/**
 * Purity of the stories a reader sees first. B-cubed averages over articles, so many small
 * correct stories hide a few huge mixed ones; the front page ranks by coverage, so the largest
 * stories are what a reader judges grouping by. A story's purity is the share of its articles
 * from its majority gold event.
 */

export interface StoryPurity {
  /** predicted story label */
  story: string;
  size: number;
  purity: number;
  /** distinct gold events in the story */
  events: number;
  /** index (into the input arrays) of the story's first article */
  first: number;
}

export interface TopPurity {
  /** the `k` largest stories (fewer when there are fewer), largest first */
  stories: StoryPurity[];
  mean: number;
  /** the least pure of them (null when there are none) */
  worst: StoryPurity | null;
  /** how many hold articles of more than one event */
  mixed: number;
  /** how many fall below `floor` */
  below: number;
}

/**
 * Purity of the `k` largest predicted stories; `predicted[i]` and `gold[i]` label item i. Ties in
 * size go to the story that appeared first, so the result does not depend on map order.
 */
export function topPurity(predicted: readonly string[], gold: readonly string[], k = 50, floor = 0.85): TopPurity {
  if (predicted.length !== gold.length) throw new RangeError('topPurity: label arrays differ in length');
  const byStory = new Map<string, { first: number; size: number; events: Map<string, number> }>();
  for (let i = 0; i < predicted.length; i++) {
    let s = byStory.get(predicted[i]!);
    if (!s) byStory.set(predicted[i]!, (s = { first: i, size: 0, events: new Map() }));
    s.size++;
    s.events.set(gold[i]!, (s.events.get(gold[i]!) ?? 0) + 1);
  }
  const top = [...byStory].sort((a, b) => b[1].size - a[1].size || a[1].first - b[1].first).slice(0, k);
  const stories = top.map(([story, s]): StoryPurity => {
    let majority = 0;
    for (const n of s.events.values()) if (n > majority) majority = n;
    return { story, size: s.size, purity: majority / s.size, events: s.events.size, first: s.first };
  });
  let worst: StoryPurity | null = null;
  for (const s of stories) if (!worst || s.purity < worst.purity) worst = s;
  return {
    stories,
    mean: stories.length === 0 ? 1 : stories.reduce((x, s) => x + s.purity, 0) / stories.length,
    worst,
    mixed: stories.filter((s) => s.events > 1).length,
    below: stories.filter((s) => s.purity < floor).length,
  };
}
