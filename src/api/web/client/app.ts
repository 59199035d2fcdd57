/**
 * The web client's entry (bundled as `/app.js`): chooses the interface's language (i18n.ts) and
 * puts the shell in it, keeps relative times current, wires the keyboard shortcuts and the
 * offline notice (registering the service worker), and starts the router, which shows the view
 * the URL names. The live module (`/live.js`) is a bundle of its own; the two talk only through
 * the page (see router.ts and live.ts).
 */
import { startClock } from './dom.js';
import { startShortcuts } from './keys.js';
import { startOffline } from './offline.js';
import { startRouter } from './router.js';
import { startSaveShortcut } from './saved.js';
import { startLanguage, startShell } from './shell.js';

startLanguage();
startShell();
startClock();
startSaveShortcut();
startShortcuts();
startOffline();
startRouter();
