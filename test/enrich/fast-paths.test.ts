import { describe, expect, it } from 'vitest';
import { extractEntities } from '../../src/actors/enrich/entities.js';
import { foldAbbreviations } from '../../src/actors/enrich/gazetteer.js';
import { isStopword, STOPWORDS } from '../../src/actors/enrich/text.js';

/** The shortcuts of enrichment must give what the plain forms give. */
describe('enrichment fast paths', () => {
  it('isStopword agrees with the stopword set', () => {
    for (const w of [...STOPWORDS, '', 'x', 'thee', 'further', 'furthers', 'caf\u00e9', 'administration', 'Th', 'THE']) {
      expect(isStopword(w)).toBe(STOPWORDS.has(w));
    }
  });

  it('foldAbbreviations skips only texts without an X.Y. pair', () => {
    for (const s of ['U.S. troops', 'the U.A.E.', 'end.', 'Mr. Smith. U.K.', 'a.b.c.', 'No dots', 'X.Y', '(U.N.)']) {
      expect(foldAbbreviations(s)).toBe(s.replace(/\b(?:[A-Z]\.){2,}/g, (m) => m.replace(/\./g, '')));
    }
  });

  it('a repeated segment (a syndicated copy) yields the same entities as the first time', () => {
    const segs = ['Fed Chair Jerome Powell Speaks In New York', 'WASHINGTON - Federal Reserve Chair Jerome Powell told lawmakers in Washington on Tuesday that the U.S. economy was strong.'];
    const first = extractEntities(segs);
    expect(extractEntities(segs)).toEqual(first);
    // a segment given twice counts its mentions twice: every count doubles, so the order stays
    expect(extractEntities([segs[1]!, segs[1]!])).toEqual(extractEntities([segs[1]!]));
    expect(first.entities.length).toBeGreaterThan(0);
  });
});
