import { describe, expect, it } from 'vitest';
import { extractEntities } from '../../src/actors/enrich/entities.js';
import { loadGazetteer, regionForCountry } from '../../src/actors/enrich/gazetteer.js';

describe('region from publisher country', () => {
  it.each([
    ['US', 'us'], ['ca', 'us'], ['GB', 'uk'], ['UK', 'uk'], ['DE', 'eu'], ['FR', 'eu'], ['JP', 'apac'],
    ['AU', 'apac'], ['IN', 'apac'], ['BR', 'latam'], ['MX', 'latam'], ['NG', 'mea'], ['AE', 'mea'],
    ['XX', 'global'], ['', 'global'], [null, 'global'],
  ])('%s -> %s', (country, region) => {
    expect(regionForCountry(country)).toBe(region);
  });
});

describe('places from the gazetteer', () => {
  it.each([
    ['Earthquake shakes Tokyo as Japanese officials assess damage', ['JP']],
    ['U.S. and Chinese negotiators meet in Geneva', ['US', 'CN', 'CH']],
    ['Protests spread from Cairo to Alexandria', ['EG']],
    ['New Zealand climbers rescued on Mount Cook', ['NZ']],
    ['Brazilian president visits Buenos Aires', ['BR', 'AR']],
    ['Prime minister meets lawmakers at Westminster', ['GB']],
    ['Quarterly results beat expectations', []],
  ])('%s', (title, places) => {
    expect(extractEntities([title]).places.sort()).toEqual([...places].sort());
  });

  it('indexes every country name', () => {
    const g = loadGazetteer();
    expect(g.phrases.get('France')?.code).toBe('FR');
    expect(g.phrases.get('United States')?.region).toBe('us');
    expect(g.regionOf.size).toBeGreaterThan(100);
  });
});
