import { describe, expect, it } from 'vitest';
import { FEED_CATEGORIES, FEED_REGIONS } from '../../src/actors/model/index.js';
import { CATALOGUES, UI_LANGUAGES, editionName, format, pickLanguage, sectionName, setLanguage, t, tn } from '../../src/api/web/client/i18n.js';
import { en } from '../../src/api/web/client/messages/en.js';
import { LIVE_MESSAGES, liveCount } from '../../src/api/web/client/messages/live.js';
import { FR_CATEGORY_NAMES, FR_REGION_NAMES, fr } from '../../src/api/web/client/messages/fr.js';

/** The web interface's message catalogue (src/api/web/client/messages): pure, in node. */
const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the interface message catalogue', () => {
  it('every key of en is in fr and every key of fr in en', () => {
    const e = Object.keys(en).sort();
    const f = Object.keys(fr).sort();
    expect(f.filter((k) => !e.includes(k))).toEqual([]);
    expect(e.filter((k) => !f.includes(k))).toEqual([]);
    for (const l of UI_LANGUAGES) expect(Object.keys(CATALOGUES[l]!).sort()).toEqual(e);
  });

  it('a message has the same placeholders in every language, and no message is empty', () => {
    for (const [k, v] of Object.entries(en)) {
      expect(v.trim(), k).not.toBe('');
      expect(fr[k as keyof typeof en].trim(), k).not.toBe('');
      expect(placeholders(fr[k as keyof typeof en]), k).toEqual(placeholders(v));
    }
  });

  it('every count message has both plural forms', () => {
    for (const k of Object.keys(en)) {
      if (k.endsWith('_one')) expect(Object.hasOwn(en, k.replace(/_one$/, '_other')), k).toBe(true);
      if (k.endsWith('_other')) expect(Object.hasOwn(en, k.replace(/_other$/, '_one')), k).toBe(true);
    }
  });

  it("the live module's small catalogue has the same keys and placeholders in both languages", () => {
    expect(Object.keys(LIVE_MESSAGES.fr).sort()).toEqual(Object.keys(LIVE_MESSAGES.en).sort());
    for (const [k, v] of Object.entries(LIVE_MESSAGES.en)) expect(placeholders(LIVE_MESSAGES.fr[k as keyof typeof LIVE_MESSAGES.en]), k).toEqual(placeholders(v));
    expect(liveCount('newStories', 1, 'en')).toBe('1 new story');
    expect(liveCount('newStories', 3, 'fr')).toBe('3 nouveaux sujets');
    expect(liveCount('newStories', 3, '')).toBe('3 new stories');
  });

  it('names every section and edition of the taxonomy in French', () => {
    for (const c of FEED_CATEGORIES) expect(FR_CATEGORY_NAMES[c], c).toBeTruthy();
    for (const r of FEED_REGIONS) expect(FR_REGION_NAMES[r], r).toBeTruthy();
    expect(Object.keys(FR_CATEGORY_NAMES).sort()).toEqual([...FEED_CATEGORIES].sort());
    expect(Object.keys(FR_REGION_NAMES).sort()).toEqual([...FEED_REGIONS].sort());
  });

  it('fills placeholders and picks the plural form of the language', () => {
    expect(format('a {x} b {y}', { x: 1 })).toBe('a 1 b {y}');
    setLanguage('en');
    expect(tn('card.matches', 1)).toBe('1 matching article');
    expect(tn('card.matches', 0)).toBe('0 matching articles');
    expect(t('search.results', { q: 'quake' })).toBe('Results for “quake”');
    expect(sectionName('top')).toBe('Top stories');
    expect(editionName('uk')).toBe('United Kingdom');
    setLanguage('fr');
    // French: 0 and 1 take the singular
    expect(tn('card.matches', 0)).toBe('0 article correspondant');
    expect(tn('card.matches', 2)).toBe('2 articles correspondants');
    expect(sectionName('business')).toBe('Économie');
    expect(editionName('nope')).toBeUndefined();
    setLanguage('en');
  });

  it('chooses the saved language, else the browser one, else English', () => {
    expect(pickLanguage('fr', ['en-US'])).toBe('fr');
    expect(pickLanguage(null, ['fr-CA', 'en'])).toBe('fr');
    expect(pickLanguage('xx', ['de-DE', 'en-GB'])).toBe('en');
    expect(pickLanguage(null, ['de-DE'])).toBe('en');
    expect(pickLanguage(undefined, [])).toBe('en');
  });
});
