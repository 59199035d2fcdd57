/**
 * The web client's entry (bundled as `/app.js`): keeps relative times current and starts the
 * router, which shows the view the URL names. The live module (`/live.js`) is a bundle of its
 * own; the two talk only through the page (see router.ts and live.ts).
 */
import { startClock } from './dom.js';
import { startRouter } from './router.js';
import { startSaveShortcut } from './saved.js';

startClock();
startSaveShortcut();
startRouter();
