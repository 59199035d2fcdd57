import { describe, expect, it } from 'vitest';
import { extractEntities, type Entity } from '../../src/actors/enrich/entities.js';

const names = (title: string, summary = ''): string[] => extractEntities([title, summary]).entities.map((e) => e.name);
const find = (es: Entity[], name: string) => es.find((e) => e.name === name);

describe('entity normalisation', () => {
  it.each([
    // aliases and dotted abbreviations
    ['U.S. lawmakers question Apple over privacy', 'United States'],
    ['US lawmakers question Apple over privacy', 'United States'],
    ['Britain and France sign defence pact', 'United Kingdom'],
    ['The Fed holds rates steady', 'Federal Reserve'],
    ['NSA surveillance program faces court test', 'National Security Agency'],
    // possessives
    ["Obama's speech draws praise from allies", 'Barack Obama'],
    ["Snowden's lawyer speaks to reporters", 'Snowden'],
    // legal forms dropped
    ['Herbalife Ltd. rejects short seller claims', 'Herbalife'],
    ['Acme Corp. posts record quarter', 'Acme'],
  ])('%s -> %s', (title, expected) => {
    expect(names(title)).toContain(expected);
  });

  it('splits a possessive from the name that follows', () => {
    const n = names("Fed's Charles Plosser sees high bar for change");
    expect(n).toContain('Federal Reserve');
    expect(n).toContain('Charles Plosser');
  });

  it('does not turn Title Case headline words into names', () => {
    const n = names('Lindsay Lohan Checks Into Rehab Center After Court Hearing');
    expect(n).toContain('Lindsay Lohan');
    expect(n.some((x) => /Checks|Court|Hearing/.test(x))).toBe(false);
  });

  it('keeps no bare article before a place ("The Chicago Falcons" is no entity "The")', () => {
    const n = names('The Chicago Falcons have signed Marisol Okafor from the Milan Harriers.');
    expect(n).not.toContain('The');
    expect(n).toContain('Marisol Okafor');
  });

  it('names a city as a place of its own and counts its country', () => {
    const r = extractEntities(['Wildfire nears Istanbul', 'Firefighters in Turkey struggled overnight.']);
    expect(r.places).toEqual(['TR']);
    expect(r.entities.filter((e) => e.type === 'place').map((e) => e.name).sort()).toEqual(['Istanbul', 'Turkey']);
  });

  it('keeps a place that opens a longer name inside it, but not before a title', () => {
    const a = extractEntities(['The Atlanta Comets have signed a striker from the Houston Royals, the club said in Denver.']);
    expect(a.entities.map((e) => e.name)).toEqual(expect.arrayContaining(['Atlanta Comets', 'Houston Royals', 'Denver']));
    expect(a.entities.map((e) => e.name)).not.toContain('Comets');
    const b = extractEntities(['London Mayor Sadiq Khan opens bridge']);
    expect(b.places).toEqual(['GB']);
    expect(b.entities.map((e) => e.name)).toContain('Sadiq Khan');
  });

  it('ignores days and months', () => {
    expect(names('Quake hits on Monday, aftershocks expected in March')).toEqual([]);
  });

  it('merges a lone surname into the full name mentioned in the same article', () => {
    const es = extractEntities(['Edward Snowden speaks at festival', 'Snowden said encryption matters.']).entities;
    expect(find(es, 'Edward Snowden')?.type).toBe('person');
    expect(find(es, 'Snowden')).toBeUndefined();
  });

  it.each([
    ['Goldman Sachs Group posts profit', 'Goldman Sachs Group', 'org'],
    ['Talks with Angela Merkel continue', 'Angela Merkel', 'person'],
    ['Tourists flock to Paris', 'Paris', 'place'],
    ['Tourists flock to France', 'France', 'place'],
    ['At least 13 died, regional governor Jonas Grimaldo told reporters', 'Jonas Grimaldo', 'person'],
    ['Director Marisol Kowalczyk walked the red carpet', 'Marisol Kowalczyk', 'person'],
  ])('types %s', (title, name, type) => {
    expect(find(extractEntities([title]).entities, name)?.type).toBe(type);
  });
});

describe('entity rejects', () => {
  it.each([
    // contractions
    ["I'm not done yet, says Lindsay Lohan", "I'm"],
    ["I've never felt better, the singer told fans", "I've"],
    // an article alone
    ['La was the word on everyone\'s lips', 'La'],
    ['Der Spiegel aside, the papers agreed', 'Der'],
    // a plural common noun capitalised by its place: opening a sentence, or in a Title Case headline
    ['Firefighters in Turkey struggled to contain the blaze', 'Firefighters'],
    ['Pharmacies across Peru have run out of medicine', 'Pharmacies'],
    ['Tens of Thousands March in Melbourne Over Rising Rents', 'Rents'],
  ])('%s: no entity %s', (text, reject) => {
    expect(names(text)).not.toContain(reject);
  });

  it.each([
    ['La Liga leaders win again', 'La Liga'],
    ['New York Harriers close in on Okonkwo deal', 'New York Harriers'],
    ['The New York Harriers have signed a striker', 'New York Harriers'],
    ['Apple unveils a new phone', 'Apple'],
    ['Lindsay Lohan checks into rehab', 'Lindsay Lohan'],
  ])('%s keeps %s', (text, keep) => {
    expect(names(text)).toContain(keep);
  });

  it.each([
    ['Strong quake shakes Sendai', 'Sendai', 'JP'],
    ['Floods hit Tangier after days of rain', 'Tangier', 'MA'],
    ['Tram strike in Sheffield enters second week', 'Sheffield', 'GB'],
  ])('knows major cities beyond the curated ones: %s', (text, city, country) => {
    const r = extractEntities([text]);
    expect(r.entities).toContainEqual({ name: city, type: 'place' });
    expect(r.places).toEqual([country]);
  });
});
