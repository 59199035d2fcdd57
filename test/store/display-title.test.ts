import { describe, expect, it } from 'vitest';
import { displayTitle } from '../../src/actors/store/display-title.js';

describe('displayTitle', () => {
  it.each([
    // the publisher's own name after a pipe or a dash
    ['Buenos Aires quake: death toll climbs to 378 | The Atlanta Ledger', 'The Atlanta Ledger', 'Buenos Aires quake: death toll climbs to 378'],
    ['Quake toll climbs - the atlanta ledger', 'The Atlanta Ledger', 'Quake toll climbs'],
    // wire slugs
    ['UPDATE 3-All-time fee: Vasquez moves to Tokyo Thunder', 'Wire', 'All-time fee: Vasquez moves to Tokyo Thunder'],
    ['REFILE-UPDATE 2-Markets slide', 'Wire', 'Markets slide'],
    ['UPDATE 2-Floods swamp Delhi after days of rain | Seattle Evening Post', 'Seattle Evening Post', 'Floods swamp Delhi after days of rain'],
    // another outlet's signature (a syndicated copy) goes too
    ['Quake toll climbs in the north | Other Times', 'The Atlanta Ledger', 'Quake toll climbs in the north'],
    ['Floods swamp Delhi after days of rain - Auckland Morning Star', 'Delhi Daily', 'Floods swamp Delhi after days of rain'],
    // framings, dashes inside a headline, a Title Case headline's own second half: kept
    ['Analysis: Why the quake was so deadly', 'Daily', 'Analysis: Why the quake was so deadly'],
    ['Stocks rise - and fall - on jobs data', 'Daily', 'Stocks rise - and fall - on jobs data'],
    ['Quake Hits Tokyo Hard - Death Toll Rises', 'Daily', 'Quake Hits Tokyo Hard - Death Toll Rises'],
    ['Short | Name', 'Daily', 'Short | Name'],
    ['UPDATE 1-', 'Wire', 'UPDATE 1-'],
  ])('%s', (title, publisher, want) => {
    expect(displayTitle(title, publisher)).toBe(want);
  });
});
