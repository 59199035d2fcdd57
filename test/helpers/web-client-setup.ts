import { buildWebClient, isStale, readWebClient, writeWebClient } from '../../src/api/web/bundle.js';

/**
 * vitest global setup: the web client in dist/web is current before any test starts, so test
 * processes (which run the server from the sources) read it instead of each bundling their own.
 * Cheap when `npm run build` ran since the last change to the client: nothing is rebuilt.
 */
export default function setup(): void {
  const built = readWebClient();
  if (built === null || isStale(built)) writeWebClient(buildWebClient());
}
