/**
 * The sources a node has, as readers and operators see them: the shipped catalogue of real
 * publishers (`/v1/catalogue`: GET says what it offers per edition and whether this node may
 * import now, POST {region} adds an edition's publishers; a node without it answers 404 and
 * nothing is shown), how the sources fare, and the empty front page that says how to add some.
 */
import { adminToken, api, problem } from './api.js';
import { el } from './dom.js';
import { regionName } from './taxonomy.js';
import type { CatalogueAdded, CatalogueInfo, SourcesSummary } from './types.js';

export const CATALOGUE_URL = '/v1/catalogue';

/** Buttons that add an edition's publishers from the catalogue, with what came of it. */
export function cataloguePicker(info: CatalogueInfo, onAdded?: (added: CatalogueAdded) => void): HTMLElement {
  const editions = (info.catalogue?.editions || []).filter((e) => e.publishers > 0);
  const say = el('p', { class: 'notice', role: 'status' });
  const add = async (region: string, button: HTMLButtonElement) => {
    button.disabled = true;
    say.className = 'notice';
    say.textContent = 'Adding publishers…';
    const r = await api<CatalogueAdded>(CATALOGUE_URL, { method: 'POST', json: { region }, token: adminToken() || undefined });
    button.disabled = false;
    if (!r.ok || !r.body) {
      say.className = 'notice warn';
      say.textContent = r.status === 401 ? 'This node has an admin token: enter it on the admin page first.' : 'Not added: ' + problem(r) + '.';
      return;
    }
    say.textContent = 'Added ' + r.body.added + ' of ' + r.body.offered + ' publishers. Their first stories appear within a few minutes.';
    if (onAdded) onAdded(r.body);
  };
  const label = (region: string) => (region === 'global' ? 'International' : regionName(region) || region);
  // a button says what it adds: the edition's own publishers and the international ones
  const count = (n: number) => n + (n === 1 ? ' publisher' : ' publishers');
  const buttons = editions.map((e) => {
    const adds = typeof e.adds === 'number' ? e.adds : e.publishers;
    const b = el('button', { type: 'button', class: 'toggle', 'data-region': e.region, 'data-adds': String(adds), text: label(e.region) + ' · ' + count(adds) });
    b.addEventListener('click', () => add(e.region, b));
    return b;
  });
  const total = info.catalogue?.total || 0;
  const all = el('button', { type: 'button', class: 'toggle', 'data-region': 'all', 'data-adds': String(total), text: 'All · ' + count(total) });
  all.addEventListener('click', () => add('all', all));
  return el('div', { class: 'catalogue' },
    el('p', { class: 'panel-note', text: 'Each edition adds its own publishers and the international ones; the number is what the button adds.' }),
    el('div', { class: 'catalogue-buttons' }, buttons, all), say);
}

/**
 * How this node's sources fare, in a sentence or two, or null when there is nothing to say (no
 * sources yet). Says plainly when every source fails, and why: a first run on real news on a
 * machine without network access must not look like "no news yet".
 */
export function sourcesStatus(s: SourcesSummary | null | undefined): HTMLElement | null {
  if (!s || !s.total) return null;
  const n = (k: number, one: string, many: string) => k + ' ' + (k === 1 ? one : many);
  const reasons = (s.reasons || []).slice(0, 3).map((r) => el('li', {}, el('strong', { text: n(r.publishers, 'source', 'sources') + ': ' }), r.message));
  if (s.failing > 0 && s.ok === 0) {
    return el('div', { class: 'sources-status bad', role: 'status', 'data-state': s.offline ? 'offline' : 'failing' },
      el('h3', { text: s.offline ? 'This node cannot reach the internet' : 'Every source polled so far failed' }),
      el('p', { text: n(s.total, 'source is', 'sources are') + ' set up, ' + n(s.failing, 'has', 'have') + ' been tried and none answered' +
        (s.polled < s.total ? ' (' + (s.total - s.polled) + ' not tried yet)' : '') + '. Why:' }),
      el('ul', {}, reasons),
      s.offline ? el('p', {}, 'Real news needs internet access. To look around without it, start the node with ', el('code', { text: '--demo' }), ' (simulated publishers).') : null);
  }
  if (s.failing > 0) {
    return el('div', { class: 'sources-status warn', role: 'status', 'data-state': 'some-failing' },
      el('p', { text: n(s.total, 'source', 'sources') + ': ' + s.ok + ' answering, ' + s.failing + ' failing. Why they fail:' }), el('ul', {}, reasons));
  }
  if (s.polled === 0) {
    return el('p', { class: 'sources-status', role: 'status', 'data-state': 'waiting', text: n(s.total, 'source is', 'sources are') + ' set up and not polled yet: the first polls come within a minute.' });
  }
  return el('p', { class: 'sources-status ok', role: 'status', 'data-state': 'ok', text: n(s.total, 'source', 'sources') + ', ' + s.ok + ' answering. New stories appear a few minutes after their first articles arrive.' });
}

/** The empty front page: how an operator adds sources. */
export function sourcesHelp(): HTMLElement {
  const steps = el('ul', { class: 'steps' },
    el('li', {}, 'Open the ', el('a', { href: '/admin', 'data-nav': '', text: 'admin page' }), ' with the admin token (the node must be started with ',
      el('code', { text: '--admin-token' }), ') to add a feed or site URL, or to import an OPML file.'),
    el('li', {}, 'Or start the node with ', el('code', { text: '--opml feeds.opml' }), ', or stop it and run ', el('code', { text: 'npx newsagg import-opml feeds.opml' }),
      ' in its folder (', el('code', { text: 'npx newsagg import-opml --help' }), ' says more).'),
    el('li', {}, 'To look around without sources, start it with ', el('code', { text: '--demo' }), ' (simulated publishers).'));
  const intro = el('p', { text: 'This node has no sources yet, or has not heard from them. Stories appear here a few minutes after sources are added. To add sources:' });
  const box = el('div', { class: 'empty sources-help' },
    el('h2', { text: 'No stories yet' }),
    intro,
    steps);
  api<CatalogueInfo>(CATALOGUE_URL).then((r) => {
    if (!r.ok || !r.body) return;
    const status = sourcesStatus(r.body.sources);
    if (status) {
      box.insertBefore(status, intro);
      intro.textContent = 'To add more sources:';
    }
    if (!r.body.catalogue) return;
    steps.append(el('li', {}, 'Or start it with ', el('code', { text: '--catalogue us' }), ' (or another edition, or ', el('code', { text: 'all' }),
      ') to add real publishers from the catalogue shipped with newsagg.'));
    if (r.body.can_import) box.append(el('h3', { text: 'Or add real publishers now (the node needs internet access):' }), cataloguePicker(r.body));
  });
  return box;
}
