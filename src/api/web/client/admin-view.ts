/**
 * The operator's page (`/admin`). The admin token is typed once and kept in sessionStorage (this
 * tab only). Add a feed or a site URL (`POST /v1/publishers`; a site's feed is discovered by the
 * server), import an OPML file (`POST /v1/opml`), and see every publisher's health
 * (`GET /v1/publishers`: status, last error, last success, next poll, articles and entries skipped
 * on purpose, owner node). A node started without `--admin-token` answers 404 on these routes:
 * the page says how to turn them on. Text through `el` only, never markup.
 */
import { ADMIN_TOKEN_KEY, adminToken as token, api, problem, type ApiResult } from './api.js';
import { el, relative } from './dom.js';
import { CATALOGUE_URL, cataloguePicker, sourcesStatus } from './sources.js';
import { CATEGORIES, categoryName } from './taxonomy.js';
import type { CatalogueInfo, OpmlImported, Page, PublisherAdded, PublisherHealth } from './types.js';
import type { View } from './view.js';

function field(label: string, input: HTMLElement): HTMLLabelElement {
  return el('label', { class: 'field' }, el('span', { text: label }), input);
}

const failures = (n: number) => n + (n === 1 ? ' failure' : ' failures');

function health(p: PublisherHealth): { cls: string; text: string } {
  if (p.circuit === 'open') return { cls: 'bad', text: 'Failing' };
  if (p.circuit === 'half_open') return { cls: 'warn', text: 'Retrying' };
  if (p.failures > 0) return { cls: 'warn', text: failures(p.failures) };
  if (!p.last_success_at) return { cls: 'idle', text: 'Not polled yet' };
  return { cls: 'ok', text: 'OK' };
}

/** a publisher polled faster while a story it likely covers is breaking: until when */
const accelerated = (iso: string | null) =>
  iso && Date.parse(iso) > Date.now()
    ? el('div', { class: 'accel-badge', title: 'Polled faster for breaking news until ' + new Date(iso).toLocaleString(), text: 'Breaking: fast until ' + new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) })
    : null;
const when = (iso: string | null) => (iso ? el('time', { datetime: iso, title: new Date(iso).toLocaleString(), text: relative(iso) }) : el('span', { class: 'muted', text: '—' }));

export function adminView(): View {
  const msg = el('p', { class: 'notice', role: 'status' });
  const tokenInput = el('input', { type: 'password', name: 'token', autocomplete: 'off', placeholder: 'Admin token', 'aria-label': 'Admin token', value: token() });
  const tokenForm = el('form', { class: 'token-form', onsubmit: (e) => {
    e.preventDefault();
    sessionStorage.setItem(ADMIN_TOKEN_KEY, tokenInput.value.trim());
    refresh();
  } }, field('Admin token', tokenInput), el('button', { type: 'submit', class: 'primary', text: 'Use token' }),
  el('button', { type: 'button', class: 'link-button', text: 'Forget', onclick: () => {
    sessionStorage.removeItem(ADMIN_TOKEN_KEY);
    tokenInput.value = '';
    refresh();
  } }));

  const url = el('input', { type: 'url', name: 'url', required: true, placeholder: 'https://example.com/feed.xml', 'aria-label': 'Feed or site URL' });
  const kind = el('select', { name: 'kind', 'aria-label': 'Kind of URL' }, el('option', { value: 'feed', text: 'Feed (RSS, Atom, JSON Feed)' }), el('option', { value: 'site', text: 'Website (find its feed)' }));
  const name = el('input', { type: 'text', name: 'name', maxlength: 200, placeholder: 'Name shown to readers (optional)', 'aria-label': 'Name' });
  const category = el('select', { name: 'category', 'aria-label': 'Section' }, el('option', { value: '', text: 'Any section' }), CATEGORIES.map((c) => el('option', { value: c, text: categoryName(c)! })));
  const country = el('input', { type: 'text', name: 'country', maxlength: 2, placeholder: 'Country (e.g. GB)', 'aria-label': 'Country code', size: 4 });
  const addForm = el('form', { class: 'add-source', onsubmit: async (e) => {
    e.preventDefault();
    const body: Record<string, string> = {};
    body[kind.value === 'site' ? 'site_url' : 'feed_url'] = url.value.trim();
    if (name.value.trim()) body.name = name.value.trim();
    if (category.value) body.category = category.value;
    if (country.value.trim()) body.country = country.value.trim();
    msg.textContent = kind.value === 'site' ? 'Looking for the site’s feed…' : 'Adding…';
    const r = await api<PublisherAdded>('/v1/publishers', { method: 'POST', json: body, token: token() });
    if (!r.ok || !r.body) return say(r, 'Not added');
    msg.textContent = 'Added ' + r.body.name + ' (' + r.body.feed_url + '). Its first poll comes within a minute.';
    url.value = '';
    name.value = '';
    refresh();
  } }, field('Feed or site URL', url), field('Kind', kind), field('Name', name), field('Section', category), field('Country', country),
  el('button', { type: 'submit', class: 'primary', text: 'Add source' }));

  const file = el('input', { type: 'file', name: 'opml', accept: '.opml,.xml,text/x-opml,text/xml,application/xml', 'aria-label': 'OPML file' });
  const opmlForm = el('form', { class: 'opml-form', onsubmit: async (e) => {
    e.preventDefault();
    const f = file.files && file.files[0];
    if (!f) return;
    msg.textContent = 'Importing…';
    const r = await api<OpmlImported>('/v1/opml', { method: 'POST', text: await f.text(), type: 'text/x-opml', token: token() });
    if (!r.ok || !r.body) return say(r, 'Not imported');
    const rej = r.body.rejected || [];
    msg.textContent = 'Imported: ' + r.body.added + ' added, ' + r.body.existing + ' already there, ' + rej.length + ' refused' +
      (rej.length ? ' (' + rej.slice(0, 3).map((x) => x.text + ': ' + x.reason).join('; ') + (rej.length > 3 ? '; …' : '') + ')' : '') + '.';
    refresh();
  } }, field('OPML file', file), el('button', { type: 'submit', class: 'primary', text: 'Import' }),
  el('a', { class: 'export', href: '#', text: 'Export all as OPML', onclick: async (e) => {
    e.preventDefault();
    const r = await fetch('/v1/opml', { headers: { authorization: 'Bearer ' + token() } });
    if (!r.ok) return say({ status: r.status, body: await r.json().catch(() => null) }, 'Not exported');
    const a = el('a', { href: URL.createObjectURL(await r.blob()), download: 'newsagg-publishers.opml' });
    a.click();
    URL.revokeObjectURL(a.href);
  } }));

  const rows = el('tbody');
  const more = el('button', { type: 'button', class: 'link-button', hidden: true, text: 'Show more' });
  const table = el('table', { class: 'publishers' },
    el('thead', {}, el('tr', {}, ['Publisher', 'Status', 'Last error', 'Last success', 'Next poll', 'Articles', 'Owner', ''].map((h) => el('th', { scope: 'col', text: h })))),
    rows);
  const catalogue = el('section', { class: 'panel', hidden: true });
  const tools = el('div', { class: 'admin-tools' },
    el('section', { class: 'panel' }, el('h2', { text: 'Add a source' }), addForm),
    el('section', { class: 'panel' }, el('h2', { text: 'Import OPML' }), opmlForm),
    catalogue);
  // how the sources fare as a whole (every one failing says so, and why), above the table
  const summary = el('div', { class: 'sources-summary' });
  const showSources = (r: ApiResult<CatalogueInfo>) => {
    const status = r.ok && r.body ? sourcesStatus(r.body.sources) : null;
    summary.replaceChildren(...(status ? [status] : []));
  };
  // the shipped catalogue of real publishers, when this node has one
  api<CatalogueInfo>(CATALOGUE_URL).then((r) => {
    showSources(r);
    if (!r.ok || !r.body || !r.body.catalogue) return;
    catalogue.replaceChildren(el('h2', { text: 'Catalogue' }),
      el('p', { class: 'panel-note', text: 'Real publishers shipped with newsagg, by edition (the node needs internet access).' }),
      cataloguePicker(r.body, () => refresh()));
    catalogue.hidden = false;
  });
  const list = el('section', { class: 'panel wide' }, el('h2', { text: 'Publisher health' }), summary, el('div', { class: 'table-wrap' }, table), more);
  const node = el('div', { class: 'view admin-view' },
    el('div', { class: 'view-head' }, el('h1', { text: 'Sources' }), el('p', { class: 'sub', text: 'Add feeds and sites, import OPML, and watch every publisher’s polling health.' })),
    el('section', { class: 'panel' }, tokenForm), msg, tools, list);

  function say(r: { status: number; body: unknown }, what: string): void {
    msg.className = 'notice warn';
    if (r.status === 404) msg.textContent = 'Admin routes are off on this node: start it with --admin-token TOKEN (or NEWSAGG_ADMIN_TOKEN), then enter that token above.';
    else if (r.status === 401) msg.textContent = token() ? 'The token was refused. Check it and try again.' : 'Enter the admin token to continue.';
    else msg.textContent = what + ': ' + problem(r) + '.';
  }

  function row(p: PublisherHealth): HTMLTableRowElement {
    const h = health(p);
    const del = el('button', { type: 'button', class: 'link-button danger', text: 'Remove', onclick: async () => {
      if (!confirm('Remove ' + p.name + '? Its stored articles stay.')) return;
      const r = await api('/v1/publishers/' + encodeURIComponent(p.id), { method: 'DELETE', token: token() });
      if (!r.ok) return say(r, 'Not removed');
      tr.remove();
    } });
    const skipped = p.entries_skipped ?? 0;
    const tr = el('tr', { 'data-publisher-id': p.id },
      el('td', {}, el('div', { class: 'pub-name', text: p.name }), el('div', { class: 'pub-url', text: p.feed_url })),
      el('td', {}, el('span', { class: 'health ' + h.cls, text: h.text })),
      el('td', { class: 'error-cell', text: p.circuit_reason || '' }),
      el('td', {}, when(p.last_success_at)),
      el('td', {}, when(p.next_poll_at), accelerated(p.accelerated_until ?? null)),
      el('td', { class: 'num', text: String(p.article_count) },
        skipped > 0 ? el('div', { class: 'muted', title: 'new entries left out on purpose: published before the retention period, or past the most entries read from one document', text: skipped + ' skipped' }) : null),
      el('td', { text: p.owner || '' }),
      el('td', {}, del));
    return tr;
  }

  async function load(cursor: string | null): Promise<void> {
    const r = await api<Page<PublisherHealth>>('/v1/publishers?limit=100' + (cursor ? '&cursor=' + encodeURIComponent(cursor) : ''), { token: token() });
    if (!r.ok || !r.body) {
      list.hidden = true;
      tools.hidden = r.status === 404;
      return say(r, 'Could not list publishers');
    }
    const page = r.body;
    list.hidden = false;
    tools.hidden = false;
    if (!cursor) {
      msg.className = 'notice';
      if (!msg.textContent || msg.textContent.startsWith('Enter') || msg.textContent.startsWith('The token')) msg.textContent = '';
    }
    if (!cursor) table.classList.toggle('no-owner', !page.items.some((p) => p.owner));
    rows.append(...page.items.map(row));
    if (!cursor && page.items.length === 0) rows.append(el('tr', {}, el('td', { colspan: 8, class: 'muted', text: 'No publishers yet: add a feed or import an OPML file above.' })));
    more.hidden = !page.next_cursor;
    more.onclick = () => load(page.next_cursor);
  }

  function refresh(): Promise<void> {
    rows.replaceChildren();
    api<CatalogueInfo>(CATALOGUE_URL).then(showSources);
    return load(null);
  }

  return { node, title: 'Sources', ready: refresh(), dispose() {} };
}
