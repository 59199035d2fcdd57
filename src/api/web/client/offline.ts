/**
 * Offline. The service worker (`/sw.js`, registered here) keeps the shell, the last front pages
 * and the saved stories, so they can be read without a network; `#offline` says so whenever the
 * network is gone: the browser is offline (navigator.onLine, the offline event), a request failed,
 * or an answer came from the worker's copy (api.ts dispatches `newsagg:network`).
 */
import { $ } from './dom.js';
import { t } from './i18n.js';

function show(offline: boolean): void {
  const n = $('offline');
  if (!n) return;
  if (offline) {
    n.textContent = t('offline.notice');
    n.hidden = false;
  } else {
    n.hidden = true;
    n.textContent = '';
  }
}

export function startOffline(): void {
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => undefined);
  if (!navigator.onLine) show(true);
  window.addEventListener('offline', () => show(true));
  window.addEventListener('online', () => {
    show(false);
    document.dispatchEvent(new CustomEvent('newsagg:refresh'));
  });
  document.addEventListener('newsagg:network', (e) => {
    const online = (e as CustomEvent<{ online: boolean }>).detail.online;
    if (!online) show(true);
    else if (navigator.onLine) show(false);
  });
}
