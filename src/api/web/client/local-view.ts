/**
 * The Local section (`/local`): the reader chooses a city (from the gazetteer, by name:
 * `GET /v1/local/cities?q=`), kept with the reader (`PUT /v1/me/local`), and sees its stories
 * (`GET /v1/local`): those naming the city first, then those placed in its country. Text through
 * `el` only, never markup.
 */
import { api, problem } from './api.js';
import { storyCard } from './cards.js';
import { el } from './dom.js';
import type { FeedItem } from './types.js';
import type { RouteOf, View } from './view.js';
import { t } from './i18n.js';

interface City {
  id: string;
  name: string;
  country: string;
  country_name: string;
}
type LocalItem = FeedItem & { near: 'city' | 'country' };

export function localView(route: RouteOf<'local'>): View {
  const status = el('p', { class: 'status', role: 'status' });
  const list = el('div', { class: 'story-list local-list', id: 'feed' });
  const input = el('input', { id: 'local-city', type: 'text', list: 'local-cities', maxlength: 100, placeholder: t('local.placeholder'), 'aria-label': t('local.label'), autocomplete: 'off' });
  const options = el('datalist', { id: 'local-cities' });
  const found = new Map<string, City>(); // "Lyon, France" -> city
  const label = (c: City) => c.name + ', ' + c.country_name;
  let timer = 0;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = window.setTimeout(async () => {
      const r = await api<{ items: City[] }>('/v1/local/cities?q=' + encodeURIComponent(input.value.trim()) + '&limit=20');
      if (!r.ok || !r.body) return;
      options.replaceChildren(...r.body.items.map((c) => {
        found.set(label(c), c);
        return el('option', { value: label(c) });
      }));
    }, 150);
  });
  const form = el('form', { class: 'local-choose', onsubmit: (e) => {
    e.preventDefault();
    void choose(input.value.trim());
  } }, input, options, el('button', { type: 'submit', class: 'primary', text: t('local.show') }));
  const heading = el('h1', { text: t('local.title') });
  const node = el('div', { class: 'view local-view' },
    el('div', { class: 'view-head' }, heading, el('p', { class: 'sub', text: t('local.sub') })),
    form, status, list);

  async function choose(text: string): Promise<void> {
    let city = found.get(text);
    if (!city && text) {
      // typed without picking a suggestion: the first city by that name
      const r = await api<{ items: City[] }>('/v1/local/cities?q=' + encodeURIComponent(text.split(',')[0]!.trim()) + '&limit=1');
      city = r.ok && r.body ? r.body.items[0] : undefined;
    }
    if (!city) {
      status.textContent = t('local.noCity');
      return;
    }
    const r = await api<{ city: City | null }>('/v1/me/local', { method: 'PUT', json: { city: city.id } });
    if (!r.ok) {
      status.textContent = t('local.notSaved', { problem: problem(r) });
      return;
    }
    await load();
  }

  async function load(): Promise<void> {
    const r = await api<{ city: City; items: LocalItem[] }>('/v1/local', { cache: 'no-store' });
    if (r.status === 400) {
      status.textContent = t('local.choose');
      list.replaceChildren();
      return;
    }
    if (!r.ok || !r.body) {
      status.textContent = r.status === 404 ? t('local.unavailable') : t('local.error', { problem: problem(r) });
      return;
    }
    const { city, items } = r.body;
    heading.textContent = t('local.titleCity', { city: city.name });
    input.value = label(city);
    found.set(label(city), city);
    status.textContent = items.length ? '' : t('local.empty', { city: city.name, country: city.country_name });
    list.replaceChildren(...items.map((it) => {
      const card = storyCard(it, { region: route.region });
      card.dataset.near = it.near;
      return card;
    }));
  }

  return { node, title: t('local.title'), dispose() { clearTimeout(timer); }, ready: load() };
}
