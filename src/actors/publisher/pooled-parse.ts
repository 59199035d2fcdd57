import { fromTaskError, type ParseTask } from '../feed/index.js';
import { looksLikeSitemap, sitemapAsFeed } from '../html/source.js';
import { siblingModule } from '../../runtime/module-url.js';
import { TaskFailedError, type TaskPool } from '../../runtime/task-pool.js';
import type { ParsedFeed, ParseFn } from './types.js';

const PARSE_TASK = siblingModule(import.meta.url, '../feed/parse-task.js').filename;

/**
 * The publisher's parse step on the shared CPU pool: a feed document becomes entries off the
 * main thread; a site without a feed, whose "feed" is its news sitemap, is read as a sitemap.
 */
export function pooledParse(pool: () => TaskPool, now: () => number = Date.now): ParseFn {
  return async (body, o): Promise<ParsedFeed> => {
    const task: ParseTask = { body: typeof body === 'string' ? new TextEncoder().encode(body) : body, baseUrl: o.baseUrl };
    if (o.contentType) task.contentType = o.contentType;
    try {
      return await pool().run<ParseTask, ParsedFeed>(PARSE_TASK, task);
    } catch (err) {
      const e = fromTaskError(err instanceof TaskFailedError ? err.cause : err);
      if ((e as { code?: string }).code === 'PARSE_UNSUPPORTED') {
        const text = new TextDecoder().decode(task.body);
        if (looksLikeSitemap(text)) return sitemapAsFeed(text, { baseUrl: o.baseUrl, now });
      }
      throw e;
    }
  };
}
