import { describe, expect, it } from 'vitest';
import { enrich } from '../../src/actors/enrich/enrich.js';

describe('enrich', () => {
  it('adds language, category, region, places and entities', () => {
    const e = enrich({
      id: 'a1', url: 'https://example.co.uk/sport/tennis/final-report', title: 'Andy Murray wins in Paris',
      summary: 'The Scottish player beat his rival in four sets on Sunday.', publisher: 'Example Sport',
      published_at: '2024-06-01T12:00:00Z', publisher_country: 'GB', language: 'en-GB',
    });
    expect(e.language).toBe('en');
    expect(e.category).toBe('sports');
    expect(e.region).toBe('uk');
    expect(e.places).toEqual(expect.arrayContaining(['FR', 'GB']));
    expect(e.entities).toContainEqual({ name: 'Andy Murray', type: 'person' });
  });

  it('falls back to the places mentioned when the publisher has no country', () => {
    const e = enrich({ id: 'a2', url: '', title: 'Floods hit Jakarta as rains continue', publisher: 'x', published_at: 0 });
    expect(e.region).toBe('apac');
  });

  it('is global without country or places', () => {
    expect(enrich({ id: 'a3', url: '', title: 'Markets drift before holiday', publisher: 'x', published_at: 0 }).region).toBe('global');
  });

  it('reads an HTML body as text: paragraph tags still open sentences', () => {
    const e = enrich({
      id: 'a4', url: '', title: 'Lagos Mariners sign striker', publisher: 'x', published_at: 0,
      text: '<p>The club confirmed the deal on Friday.</p><p>Fans gathered outside the stadium &amp; cheered.</p>',
    });
    const names = e.entities.map((x) => x.name);
    expect(names).not.toContain('Fans');
    expect(names.some((n) => n.includes('<') || n.includes('amp'))).toBe(false);
  });

  // headline decorations are no entities; the names in the headline still come out
  it.each([
    ['Quake hits Sendai - The Paris Examiner', ['Sendai'], ['Paris', 'Examiner'], 'JP'],
    ['Mayor Elena Thorvald opens new bridge in Lyon - The Paris Examiner', ['Elena Thorvald', 'Lyon'], ['Paris', 'Examiner'], 'FR'],
    ['Strong quake rattles Casablanca | The Morning Star', ['Casablanca'], ['Morning Star'], 'MA'],
    ['Fire guts market in Kano -- Lagos Herald', ['Kano'], ['Lagos', 'Herald'], 'NG'],
    ['Analysis: Why Umar Pemwick lost the vote in Ghana', ['Umar Pemwick', 'Ghana'], ['Analysis'], 'GH'],
    ['UPDATE 2-Fed holds rates - Reuters', ['Federal Reserve'], ['Reuters', 'UPDATE'], null],
    ['Watch: Strong quake rattles Casablanca - BBC News', ['Casablanca'], ['BBC', 'Watch'], 'MA'],
  ])('%s: no publisher or label entity', (title, kept, dropped, place) => {
    const e = enrich({ id: 't', url: '', title, publisher: 'x', published_at: 0 });
    const names = e.entities.map((x) => x.name);
    for (const n of kept) expect(names).toContain(n);
    for (const d of dropped) expect(names.some((n) => n.includes(d))).toBe(false);
    if (place) expect(e.places[0]).toBe(place);
  });

  it('keeps a dash that is punctuation, not a publisher', () => {
    const e = enrich({ id: 't', url: '', title: 'Strikes in Lyon - and Marseille - halt trains', publisher: 'x', published_at: 0 });
    expect(e.entities.map((x) => x.name)).toEqual(expect.arrayContaining(['Lyon', 'Marseille']));
  });
});
