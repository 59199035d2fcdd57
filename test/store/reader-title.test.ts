import { describe, expect, it } from 'vitest';
import { readerTitle } from '../../src/actors/store/feed-items.js';

describe('readerTitle', () => {
  it.each([
    ['Buenos Aires quake: death toll climbs to 378 | The Atlanta Ledger', 'The Atlanta Ledger', 'Buenos Aires quake: death toll climbs to 378'],
    ['Quake toll climbs - the atlanta ledger', 'The Atlanta Ledger', 'Quake toll climbs'],
    ['UPDATE 3-All-time fee: Vasquez moves to Tokyo Thunder', 'Wire', 'All-time fee: Vasquez moves to Tokyo Thunder'],
    ['REFILE-UPDATE 2-Markets slide', 'Wire', 'Markets slide'],
    // another outlet's name, a framing, a dash inside the headline: kept
    ['Quake toll climbs | Other Times', 'The Atlanta Ledger', 'Quake toll climbs | Other Times'],
    ['Analysis: Why the quake was so deadly', 'Daily', 'Analysis: Why the quake was so deadly'],
    ['Stocks rise - and fall - on jobs data', 'Daily', 'Stocks rise - and fall - on jobs data'],
    ['UPDATE 1-', 'Wire', 'UPDATE 1-'],
  ])('%s', (title, publisher, want) => {
    expect(readerTitle(title, publisher)).toBe(want);
  });
});
