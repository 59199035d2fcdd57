import { storyArticles } from '../../actors/store/articles.js';
import { displayTitle } from '../../actors/store/display-title.js';
import { storySecondaryCategory } from '../../actors/store/feed-items.js';
import { getStories } from '../../actors/store/stories.js';
import { coverageSections } from '../coverage.js';
import { storyAtom } from './atom.js';
import { parseId, readQuery } from '../params.js';
import { HttpError, type Handler } from '../reply.js';
import type { Router } from '../router.js';
import { DETAIL_CACHE, jsonCached, publicArticle, type ApiDeps } from './common.js';

/** More articles than this in one story are cut (newest kept); article_count still says how many. */
const MAX_ARTICLES = 500;

/**
 * `GET /v1/stories/:id`: Full Coverage, i.e. the story, every article of it (newest first, each
 * with the headline as readers see it in `display_title`), every publisher covering it with how
 * many of its articles are in the story, and the page's sections: a timeline, the top coverage
 * and coverage by region (coverage.ts).
 */
export function registerStoryRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  router.get(
    '/v1/stories/:id',
    wrap(async (req) => {
      // `/v1/stories/:id.atom`: Full Coverage as an Atom feed (atom.ts)
      if (req.params.id?.endsWith('.atom')) return storyAtom(req, deps, req.params.id.slice(0, -5));
      readQuery(req.query, []);
      const id = parseId(req.params.id);
      const [story] = await getStories(deps.sql, [id]);
      if (!story) throw new HttpError(404, 'not_found', 'no such story');
      const rows = await storyArticles(deps.sql, id, MAX_ARTICLES);
      const pubs = new Map<string, { id: string; name: string; article_count: number }>();
      for (const a of rows) {
        const p = pubs.get(a.publisher_id);
        if (p) p.article_count++;
        else pubs.set(a.publisher_id, { id: a.publisher_id, name: a.publisher_name, article_count: 1 });
      }
      const articles = rows.map((a) => ({ ...publicArticle(a), display_title: displayTitle(a.title, a.publisher_name) }));
      const sections = coverageSections(
        articles.map((a, i) => ({ ...a, publisher_tier: rows[i]!.publisher_tier })),
        story.lead_article_id,
      );
      const { entities: _e, score: _s, ...rest } = story;
      const lead = rows.find((a) => a.id === story.lead_article_id);
      return jsonCached(
        req,
        {
          story: { ...rest, secondary_category: lead ? storySecondaryCategory(story.category, lead) : null },
          articles,
          publishers: [...pubs.values()].sort((a, b) => b.article_count - a.article_count || a.name.localeCompare(b.name)),
          ...sections,
        },
        DETAIL_CACHE,
      );
    }),
  );
}
