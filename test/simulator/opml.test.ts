import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { get, T0 } from './helpers.js';

describe('OPML', () => {
  let sim: Simulator;
  beforeAll(async () => {
    sim = await startSimulator({ publishers: 120, seed: 'opml', now: () => T0, misbehaving: { error500: 3 } });
  });
  afterAll(async () => sim.close());

  it('lists every publisher with its feed, site, section and country', async () => {
    const res = await get(`${sim.url}/opml.xml`);
    expect(res.status).toBe(200);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => n === 'outline' }).parse(res.text);
    expect(doc.opml.version).toBe('2.0');
    const outlines = doc.opml.body.outline as Record<string, string>[];
    expect(outlines).toHaveLength(sim.publishers.length);
    const byUrl = new Map(outlines.map((o) => [o.xmlUrl, o]));
    for (const p of sim.publishers) {
      const o = byUrl.get(p.feed_url);
      expect(o, p.id).toBeDefined();
      expect(o?.text).toBe(p.name);
      expect(o?.htmlUrl).toBe(p.site_url);
      expect(o?.category).toBe(p.section);
      expect(o?.['newsagg:country']).toBe(p.country);
      expect(o?.type).toBe(p.format === 'sitemap' ? 'sitemap' : 'rss');
    }
  });

  it('the catalogue mixes countries, sections and formats', () => {
    expect(new Set(sim.publishers.map((p) => p.country)).size).toBeGreaterThan(10);
    expect(new Set(sim.publishers.map((p) => p.section)).size).toBe(8);
    expect(new Set(sim.publishers.map((p) => p.format))).toEqual(new Set(['rss', 'atom', 'jsonfeed', 'sitemap']));
    expect(new Set(sim.publishers.map((p) => p.name)).size).toBe(sim.publishers.length);
  });
});
