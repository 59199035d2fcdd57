import { readFile } from 'node:fs/promises';
import { parseOpml } from '../actors/publisher/opml.js';
import { importFeeds } from '../cli/import-opml.js';
import type { Component, Node } from '../node.js';
import { NewsaggError } from '../runtime/errors.js';

/** `start --opml FILE`: import the file's feeds before publisher actors start (idempotent). */
export function opmlComponent(file: string): Component {
  return {
    name: 'opml',
    async start(node: Node) {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (err) {
        throw new NewsaggError('CONFIG_INVALID', `--opml: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`, { cause: err });
      }
      const summary = await importFeeds(node.sql, parseOpml(text), null, () => {});
      node.log.info({ file, feeds: summary.feeds, added: summary.added, problems: summary.problems.length }, 'OPML imported');
    },
  };
}
