import type { Entity } from '../enrich/entities.js';
import { StoryClusterer } from '../stories/clusterer.js';
import type { PipelineItem, Stage } from './types.js';

/**
 * `process` stage: online story clustering in input order, as the StoryCluster actor does it.
 * A duplicate joins its original's story; a repeated URL (an update) reports its article's story.
 */
export class StoryStage implements Stage {
  readonly name = 'stories';
  private readonly clusterer: StoryClusterer;

  constructor(opts: { windowMs?: number } = {}) {
    this.clusterer = new StoryClusterer({ ...(opts.windowMs ? { windowMs: opts.windowMs } : {}) });
  }

  run(items: PipelineItem[]): void {
    for (const it of items) {
      if (it.update) {
        it.out.story_id = this.clusterer.storyOf(it.out.id) ?? null;
        continue;
      }
      const r = this.clusterer.add(
        {
          id: it.out.id,
          url: it.canonicalUrl,
          title: it.raw.title,
          summary: it.raw.summary ?? null,
          text: it.raw.text ?? null,
          publisher: it.raw.publisher,
          published_at: it.publishedAt,
          language: it.out.language,
          duplicate_of: it.out.duplicate_of,
        },
        {
          entities: (it.out.entities ?? []) as Entity[],
          places: it.places ?? [],
          ...(it.out.category ? { category: it.out.category } : {}),
          ...(it.out.region ? { region: it.out.region } : {}),
        },
      );
      it.out.story_id = r.storyId;
    }
  }
}
