import { describe, expect, it } from 'vitest';
import { fold, normalizeText, normalizeTitle, stripHtml } from '../../src/actors/dedup/normalize.js';

describe('stripHtml', () => {
  it.each([
    ['<p>One <b>bold</b> move</p>', 'One  bold  move'],
    ['Fish &amp; chips', 'Fish & chips'],
    ['Fish &amp;amp; chips', 'Fish & chips'],
    ['&lt;p&gt;Escaped markup&lt;/p&gt;', 'Escaped markup'],
    ['&amp;lt;em&amp;gt;twice&amp;lt;/em&amp;gt;', 'twice'],
    ['It&#8217;s &#x201C;here&#x201D;', 'It\u2019s \u201Chere\u201D'],
    ['<script>var x = "<p>";</script>Text', 'Text'],
    ['a<br/>b', 'a\nb'],
    ['<GSW INC> YEAR NET and <IBM.N>', '<GSW INC> YEAR NET and <IBM.N>'],
    ['x <span class="k">y</span>', 'x  y'],
  ])('%j', (input, want) => {
    expect(stripHtml(input).trim()).toBe(want);
  });
});

describe('fold', () => {
  it.each([
    ['\u201CQuoted\u201D \u2018words\u2019', '"quoted" \'words\''],
    ['Left\u2014right \u2013 minus\u2212', 'left-right - minus-'],
    ['\uFB01nance \u2460 full\uFF37idth', 'finance 1 fullwidth'],
    ['  many \n\t spaces\u00A0here ', 'many spaces here'],
    ['CAF\u00C9 Caf\u0065\u0301', 'caf\u00e9 caf\u00e9'],
  ])('%j', (input, want) => {
    expect(fold(input)).toBe(want);
  });
});

describe('normalizeTitle', () => {
  it.each([
    ['UPDATE 2-Oil prices climb on supply worries', 'oil prices climb on supply worries'],
    ['REFILE-UPDATE 1-Oil prices climb on supply worries', 'oil prices climb on supply worries'],
    ['EXCLUSIVE: Oil prices climb on supply worries', 'oil prices climb on supply worries'],
    ['Oil prices climb on supply worries | The Daily Ledger', 'oil prices climb on supply worries'],
    ['Oil prices climb on supply worries - Metro Wire', 'oil prices climb on supply worries'],
    ['OIL PRICES CLIMB ON SUPPLY WORRIES', 'oil prices climb on supply worries'],
    ['Oil prices climb on supply worries \u2014 Channel Nine', 'oil prices climb on supply worries'],
    // a dash inside a short headline is content, not an outlet suffix
    ['Jobs - what next?', 'jobs - what next?'],
    // a spaced dash inside the headline's own words: a compound, a score, a clause
    ['Woman killed in Queens hit - and - run accident', 'woman killed in queens hit - and - run accident'],
    ['Luck throws for 205 yards as Colts beat Chiefs 20 - 13', 'luck throws for 205 yards as colts beat chiefs 20 - 13'],
    ['Woman Killed In Queens Hit - And - Run Accident, Driver Charged', 'woman killed in queens hit - and - run accident, driver charged'],
    ['&lt;b&gt;Rates&lt;/b&gt; rise &amp; markets fall', 'rates rise & markets fall'],
  ])('%j', (input, want) => {
    expect(normalizeTitle(input)).toBe(want);
  });
});

describe('normalizeText', () => {
  const body = 'The central bank raised rates by a quarter point on Tuesday.';
  const want = 'the central bank raised rates by a quarter point on tuesday.';
  it.each([
    ['plain', body],
    ['Reuters dateline', `LONDON (Reuters) - ${body}`],
    ['AP dateline with date', `NEW YORK, March 3 (AP) \u2014 ${body}`],
    ['AFP dateline, mixed-case city', `Hong Kong (AFP) - ${body}`],
    ['1987 wire dateline', `SALVADOR, Feb 26 - ${body}`],
    ['byline line', `By Jane Q. Doe\n${body}`],
    ['copyright footer', `${body}\n\u00A9 2024 Evening Courier. All rights reserved.`],
    ['glued copyright footer', `${body} Copyright 2024 Metro Wire. May not be redistributed.`],
    ['auto-generated footer', `${body}\nThis story was auto-generated from a syndicated feed and has not been edited.`],
    ['reporting credits', `${body}\n(Reporting by Ann Lee; Editing by Tom Hart)`],
    ['html and entities', `<p>The central bank raised rates by a quarter point on Tuesday.</p><p>&copy; 2024 Evening Courier</p>`],
    ['smart quotes stay folded', body.replace('The', 'The')],
  ])('removes noise: %s', (_name, input) => {
    expect(normalizeText(input)).toBe(want);
  });

  it('keeps a body that merely starts with capitalised words and a dash', () => {
    expect(normalizeText('Tony Blair - the prime minister - spoke.')).toBe('tony blair - the prime minister - spoke.');
  });

  it('keeps text between the first and last lines even when it mentions copyright', () => {
    const t = 'Lawyers argued.\nThe copyright case was heard on Monday and is all rights reserved material.\nThe judge will rule later.';
    expect(normalizeText(t)).toContain('the judge will rule later.');
  });
});
