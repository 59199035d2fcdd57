import { importOpmlFile } from '../actors/publisher/import.js';
import type { Component, Node } from '../node.js';
import { ConfigError } from '../runtime/errors.js';

/** `start --opml FILE`: import the file's feeds before publisher actors start (idempotent). */
export function opmlComponent(file: string): Component {
  return {
    name: 'opml',
    async start(node: Node) {
      const summary = await importOpmlFile(node.sql, file).catch((err: unknown) => {
        if ((err as { code?: string }).code === 'OPML_INVALID') throw new ConfigError(`--opml: ${(err as Error).message}`, err);
        throw err;
      });
      node.log.info({ file, feeds: summary.feeds, added: summary.added, problems: summary.problems.length }, 'OPML imported');
    },
  };
}
