import { describe, expect, it } from 'vitest';
import { ANCHOR_BYTES, anchorMask, anchorsConflict } from '../../src/actors/dedup/anchors.js';
import { DedupIndex } from '../../src/actors/dedup/dedup-index.js';
import { fingerprint } from '../../src/actors/dedup/fingerprint.js';
import { normalizeText, normalizeTitle } from '../../src/actors/dedup/normalize.js';
import { containment, COUNT_OFFSET } from '../../src/actors/dedup/sketch.js';
import { stripDateline, stripLead } from '../../src/actors/dedup/wire-lead.js';

const BODY = 'Harbour officials closed the northern channel after a grain barge ran aground on Tuesday.';

describe('datelines in their real forms', () => {
  it.each([
    ['city alone, hyphen', 'LONDON - '],
    ['city alone, double hyphen', 'LONDON -- '],
    ['city alone, en dash', 'LONDON \u2013 '],
    ['city alone, em dash', 'LONDON \u2014 '],
    ['city alone, colon', 'LONDON: '],
    ['two-word city', 'SAN FRANCISCO - '],
    ['city with a particle', 'RIO DE JANEIRO \u2014 '],
    ['abbreviated city', 'ST. LOUIS -- '],
    ['two cities', 'NEW YORK/WASHINGTON (Reuters) - '],
    ['city and date', 'NEW YORK, March 3 - '],
    ['city and abbreviated date with year', 'BEIJING, Jan. 5, 2024 \u2013 '],
    ['day before month', 'PARIS, 3 March 2024 \u2014 '],
    ['weekday', 'TOKYO, Tuesday - '],
    ['lower-case month (1987 wire)', 'SADDLE BROOK, N.J., march 11 - '],
    ['city and agency', 'LONDON (Reuters) - '],
    ['unknown agency', 'JAKARTA (Atlas Wire) \u2014 '],
    ['agency without brackets', 'NEW DELHI IANS - '],
    ['agency alone', '(Reuters) - '],
    ['city, state, date, agency', 'SAN JOSE, Calif., May 2 (AP) \u2014 '],
    ['city, state, date', 'IRVING, Texas, June 1 - '],
    ['press release', 'SAN JOSE, Calif., May 2, 2024 /PRNewswire/ -- '],
    ['title-case city and country, agency', 'Nairobi, Kenya (CNN) \u2014 '],
    ['title-case city and country', 'Nairobi, Kenya \u2014 '],
    ['title-case city and date', 'Hong Kong, March 3 - '],
    ['title-case city before a sentence', 'Sydney - '],
  ])('%s', (_name, dateline) => {
    expect(stripDateline(dateline + BODY)).toBe(BODY);
    expect(normalizeText(dateline + BODY)).toBe(normalizeText(BODY));
  });

  it.each([
    ['a name and a dash inside a sentence', 'Tony Blair - the prime minister - spoke.'],
    ['a sentence that opens with a capital', 'The bank - which lost money - said so.'],
    ['a long capitalised run is no dateline', 'THE GOVERNOR OF THE CENTRAL BANK OF THE REPUBLIC SAID ON MONDAY THAT RATES WOULD RISE SOON AND OFTEN AND FOR A LONG TIME - analysts said.'],
    ['lower-case opening', 'officials said - later - that it was over.'],
  ])('keeps %s', (_name, text) => {
    expect(stripDateline(text)).toBe(text);
  });
});

describe('bylines and credit lines', () => {
  it.each([
    ['By Jane Doe'],
    ['BY JANE DOE, Associated Press'],
    ['By Jane Doe and Li Wei'],
    ['Jane Doe | Metro Wire'],
    ['Jane Doe, Staff Reporter'],
    ['Written by Priya Raman'],
    ['By Kenji Sato \u2022 4 min read'],
    ['Photo: Getty Images'],
    ['Photo by Sam Okafor/AFP via Getty Images'],
    ['(Photo: AP)'],
    ['FILE PHOTO: A trader works on the floor.'],
    ['Image copyright Reuters Image caption Officials at the scene'],
    ['Advertisement'],
    ['Listen to this article'],
    ['Updated 3:15 p.m. ET'],
  ])('drops the line %j', (line) => {
    expect(normalizeText(`${line}\n${BODY}`)).toBe(normalizeText(BODY));
  });

  it.each([
    ['By Jane Doe LONDON (Reuters) - '],
    ['Written by Priya Raman WASHINGTON (Xinhua) \u2014 '],
    ['By Maria Gonzalez-Ruiz and Anne-Marie Dubois Ottawa, December 1: '],
    ['Getty Images LONDON, May 5 /PRNewswire/ \u2014 '],
    ['Updated 3:15 p.m. ET NEW YORK (AP) \u2014 '],
  ])('drops %j glued before a dateline on one line', (lead) => {
    expect(stripLead(lead + BODY)).toBe(BODY);
  });

  it('keeps a first line that is a sentence', () => {
    expect(normalizeText(`By the end of the year the bank will close.\n${BODY}`)).toContain('by the end of the year');
  });
});

describe('footers', () => {
  it.each([
    ['The Associated Press contributed to this report.'],
    ['This article originally appeared on Metro Wire.'],
    ['Contact the reporter at jane@example.com'],
    ['\u2014 Jane Doe'],
    ['Our Standards: The Thomson Reuters Trust Principles.'],
  ])('drops the last line %j', (line) => {
    expect(normalizeText(`${BODY}\nThe channel reopened later.\n${line}`)).toBe(normalizeText(`${BODY}\nThe channel reopened later.`));
  });
});

describe('headline decorations', () => {
  it.each([
    ['Barge runs aground in northern channel \u2014 WKRN-TV'],
    ['Barge runs aground in northern channel \u2013 The Daily Ledger'],
    ['Barge runs aground in northern channel - Yahoo Finance'],
    ['Barge runs aground in northern channel | Metro Wire'],
    ['UPDATE 2-Barge runs aground in northern channel'],
    ['BARGE RUNS AGROUND IN NORTHERN CHANNEL'],
    ['Barge runs aground in northern channel &amp;mdash; Metro Wire'],
  ])('%j', (title) => {
    expect(normalizeTitle(title)).toBe('barge runs aground in northern channel');
  });

  it('keeps a short headline whose dash is content', () => {
    expect(normalizeTitle('Jobs - what next?')).toBe('jobs - what next?');
  });
});

describe('anchors read figures whole', () => {
  const mask = (t: string): Uint8Array => {
    const m = new Uint8Array(ANCHOR_BYTES);
    anchorMask(t, m, 0);
    return m;
  };
  it.each([
    ['another price', 'Sun said the price rose to 50.50 cts a gallon.', 'Sun said the price fell to 50 cts a gallon.', true],
    ['another total', 'Sales were 2,623,000 dlrs.', 'Sales were 2,577,000 dlrs.', true],
    ['one text wrapped, the other not', 'The firm said\nNorthgate Labs lost 594 files.', 'The firm said Northgate Labs lost 594 files.', false],
  ])('%s', (_name, a, b, want) => {
    expect(anchorsConflict(mask(a), 0, mask(b), 0)).toBe(want);
  });
});

describe('containment', () => {
  it('estimates how much of the smaller set the larger holds', () => {
    // 20 of 50 shared: Jaccard 0.4, the smaller wholly contained
    expect(containment(20 / 50, 20, 50)).toBeCloseTo(1, 5);
    expect(containment(0, 20, 50)).toBe(0);
    expect(containment(0.5, 0, 50)).toBe(0);
  });

  it('is stored with the sketch', () => {
    const fp = fingerprint('Barge runs aground', BODY);
    expect(fp.sketch![COUNT_OFFSET]).toBeGreaterThan(10);
  });
});

describe('wire copies end to end', () => {
  const T0 = Date.UTC(2024, 5, 1);
  const lead = 'Harbour officials in Rotterdam closed the northern channel on Tuesday after a grain barge carrying 4,200 tonnes of wheat ran aground near the Maasvlakte terminal, blocking traffic for container ships heading to the port.';
  const rest = ' Salvage crews from Smit expected to refloat the vessel at high tide. A port spokesman said no fuel had leaked and nobody was hurt. Ships were being diverted through the southern approach, adding several hours to their journeys. The barge had been travelling from Duisburg.';
  it.each([
    ['dateline with date and agency', 'Barge runs aground', `ROTTERDAM, June 4 (Reuters) \u2014 ${lead}${rest}`],
    ['byline and dateline', 'Barge runs aground | Metro Wire', `By Jane Doe\n\nROTTERDAM -- ${lead}${rest}`],
    ['ending cut', 'Barge runs aground', `${lead} Salvage crews from Smit expected to refloat the vessel at high tide...`],
    ['typographic and entities twice', 'Barge runs aground', `${lead.replace(/'/g, '&amp;#8217;')}${rest.replace(/ - /g, ' &amp;mdash; ')}`],
    ['credit line and footer', 'BARGE RUNS AGROUND', `Photo: Getty Images\n${lead}${rest}\n\u00a9 2024 Evening Courier. All rights reserved.`],
  ])('finds the copy: %s', async (_name, title, text) => {
    const idx = await DedupIndex.create({ partitions: 1 });
    const out = await idx.submit([
      { id: 'orig', fp: fingerprint('Barge runs aground', lead.slice(0, 300), lead + rest), publishedAt: T0 },
      { id: 'copy', fp: fingerprint(title, text.slice(0, 300), text), publishedAt: T0 + 60_000 },
    ]);
    expect(out.map((d) => d.duplicateOf)).toEqual([null, 'orig']);
  });

  it('finds a copy whose feed cut the snippet shorter', async () => {
    const idx = await DedupIndex.create({ partitions: 1 });
    const out = await idx.submit([
      { id: 'orig', fp: fingerprint('Barge runs aground', lead), publishedAt: T0 },
      { id: 'copy', fp: fingerprint('Barge runs aground', `${lead.slice(0, 140)}\u2026`), publishedAt: T0 + 60_000 },
    ]);
    expect(out.map((d) => d.duplicateOf)).toEqual([null, 'orig']);
  });

  it('keeps a look-alike about another figure apart', async () => {
    const idx = await DedupIndex.create({ partitions: 1 });
    const other = lead.replace('4,200', '3,900').replace('Tuesday', 'Friday');
    const out = await idx.submit([
      { id: 'a', fp: fingerprint('Barge runs aground', lead), publishedAt: T0 },
      { id: 'b', fp: fingerprint('Barge runs aground', other), publishedAt: T0 + 60_000 },
    ]);
    expect(out.map((d) => d.duplicateOf)).toEqual([null, null]);
  });
});
