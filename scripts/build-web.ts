/**
 * `npm run build`'s second step: bundles the web client (src/api/web/client) into dist/web.
 * The vitest global setup calls the same, so tests run from the sources serve a current client.
 */
import { buildWebClient, writeWebClient, WEB_OUT_DIR } from '../src/api/web/bundle.js';

const build = buildWebClient();
writeWebClient(build);
const size = [...build.files].filter(([name]) => !name.endsWith('.map')).map(([name, text]) => `${name} ${(Buffer.byteLength(text) / 1024).toFixed(1)} KiB`);
console.log(`web client: ${size.join(', ')} from ${build.inputs.length} sources -> ${WEB_OUT_DIR}`);
