import { importCatalogue, publisherCount } from '../actors/publisher/catalogue.js';
import type { Component, Node } from '../node.js';

/**
 * Real news out of the box: with `--catalogue EDITION|all`, a node whose database has no
 * publishers adds the shipped catalogue's (before publisher actors start); a node that has some
 * is left as it is. Without the flag, an empty node says how to get sources.
 */
export function catalogueComponent(choice: string | undefined, hasOtherSources: boolean): Component {
  return {
    name: 'catalogue',
    async start(node: Node) {
      if ((await publisherCount(node.sql)) > 0) return;
      if (choice) {
        const { added, offered } = await importCatalogue(node.sql, choice);
        node.log.info({ catalogue: choice, added: added.length, offered }, 'catalogue of real publishers added');
      } else if (!hasOtherSources) {
        node.log.info(
          'no publishers yet: open the web UI to pick an edition of real news sources, or restart with --catalogue us|uk|eu|apac|latam|mea|global|all (or --demo for simulated news without network)',
        );
      }
    },
  };
}
