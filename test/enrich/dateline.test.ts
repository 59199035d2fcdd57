import { describe, expect, it } from 'vitest';
import { splitDateline } from '../../src/actors/enrich/dateline.js';
import { enrich } from '../../src/actors/enrich/enrich.js';

describe('wire datelines', () => {
  it.each([
    ['JAKARTA (Atlas) - Kyvane Software said on Friday', 'Jakarta', 'Kyvane Software said on Friday'],
    ['NEW YORK, March 3 (AP) — Stocks fell', 'New York', 'Stocks fell'],
    ['RIO DE JANEIRO (MPA) - Floods swept', 'Rio de Janeiro', 'Floods swept'],
    ['Nairobi, Kenya (CNN) — Police said', 'Nairobi', 'Police said'],
    ['WASHINGTON - The Senate voted', 'Washington', 'The Senate voted'],
    ['LONDON (Reuters) - A court ruled', 'London', 'A court ruled'],
    ['GOTHAMVILLE (Wire) - Officials said', null, 'Officials said'],
  ])('%s -> place %s', (text, place, rest) => {
    expect(splitDateline(text)).toEqual({ place, rest });
  });

  it.each(['NASA - the agency said', 'Apple - the company said', 'UPDATE 1-Strong quake', 'The quake struck', 'BREAKING - markets fall', ''])(
    'leaves text without a dateline alone: %s',
    (text) => expect(splitDateline(text)).toEqual({ place: null, rest: text }),
  );

  // a feed's HTML body (content:encoded) opens with <p>: stripped, it starts with a line break,
  // and the dateline there must still be read as one, or the agency and the word after the dash
  // ("Rescue teams ...") become names
  it('finds the dateline of an HTML body', () => {
    expect(splitDateline('\nCHENNAI (MPA) - Rescue teams worked through the night')).toEqual({ place: 'Chennai', rest: 'Rescue teams worked through the night' });
    const e = enrich({
      id: 'x', url: 'https://example.com/a', title: 'Survivors describe Chennai earthquake', summary: null,
      text: '<p>CHENNAI (MPA) - Rescue teams in Chennai worked through the night to reach residents trapped by the quake.</p><p>Schools will stay closed.</p>',
      publisher: 'p', published_at: '2026-11-30T10:00:00Z',
    });
    expect(e.entities.map((x) => x.name)).not.toContain('MPA');
    expect(e.entities.map((x) => x.name)).not.toContain('Rescue');
    expect(e.entities).toContainEqual({ name: 'Chennai', type: 'place' });
  });

  it('reads the dateline city as a place and never makes the agency an entity', () => {
    const e = enrich({
      id: 'x', url: 'https://example.com/a', title: 'Ransomware attack shuts Kyvane Software systems',
      summary: 'JAKARTA (Atlas) - Kyvane Software said on Friday that hackers had accessed personal data of customers.',
      text: null, publisher: 'p', published_at: '2026-11-30T10:00:00Z',
    });
    expect(e.entities).toContainEqual({ name: 'Jakarta', type: 'place' });
    expect(e.places).toContain('ID');
    expect(e.entities.map((x) => x.name)).not.toContain('Atlas');
    expect(e.entities.map((x) => x.name)).not.toContain('JAKARTA');
  });
});
