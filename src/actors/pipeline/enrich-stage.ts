import { removeTitleNoise } from '../dedup/normalize.js';
import { enrich, warmUpEnrichment } from '../enrich/enrich.js';
import type { PipelineItem, Stage } from './types.js';

/** `process` stage: language, topic, region, places and entities (the online CPU stage's code). */
export class EnrichStage implements Stage {
  readonly name = 'enrich';

  constructor() {
    warmUpEnrichment();
  }

  run(items: PipelineItem[]): void {
    for (const it of items) {
      const e = enrich({
        id: it.out.id,
        url: it.canonicalUrl,
        // syndication noise (`| Outlet`, `UPDATE 2-`) would read as entities
        title: removeTitleNoise(it.raw.title),
        summary: it.raw.summary ?? null,
        text: it.raw.text ?? null,
        publisher: it.raw.publisher,
        published_at: it.publishedAt,
        feed_category: it.raw.feed_category ?? null,
        publisher_country: it.raw.publisher_country ?? null,
        language: it.raw.language ?? null,
      });
      it.out.language = e.language;
      it.out.category = e.category;
      it.out.region = e.region;
      it.out.entities = e.entities;
      it.places = e.places;
    }
  }
}
