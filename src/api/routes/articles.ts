import { getArticles, storyArticles } from '../../actors/store/articles.js';
import { getStories } from '../../actors/store/stories.js';
import { parseId, readQuery } from '../params.js';
import { HttpError, type Handler } from '../reply.js';
import type { Router } from '../router.js';
import { DETAIL_CACHE, jsonCached, publicArticle, type ApiDeps } from './common.js';

/** Related articles shown beside one article; Full Coverage (`/v1/stories/:id`) has them all. */
const RELATED = 20;

/**
 * `GET /v1/articles/:id`: one article, a summary of its story, and other articles of the same
 * story (newest first, the article itself left out).
 */
export function registerArticleRoutes(router: Router, deps: ApiDeps, wrap: (h: Handler) => Handler): void {
  router.get(
    '/v1/articles/:id',
    wrap(async (req) => {
      readQuery(req.query, []);
      const id = parseId(req.params.id);
      const [article] = await getArticles(deps.sql, [id]);
      if (!article) throw new HttpError(404, 'not_found', 'no such article');
      let story = null;
      let related: ReturnType<typeof publicArticle>[] = [];
      if (article.story_id) {
        const [s] = await getStories(deps.sql, [article.story_id]);
        if (s) story = { id: s.id, title: s.title, article_count: s.article_count, publisher_count: s.publisher_count, updated_at: s.updated_at };
        const rows = await storyArticles(deps.sql, article.story_id, RELATED + 1);
        related = rows.filter((r) => r.id !== article.id).slice(0, RELATED).map(publicArticle);
      }
      return jsonCached(req, { article: publicArticle(article), story, related }, DETAIL_CACHE);
    }),
  );
}
