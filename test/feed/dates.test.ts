import { describe, expect, it } from 'vitest';
import { parseFeedDate } from '../../src/actors/feed/dates.js';

const iso = (s: string) => parseFeedDate(s)?.toISOString() ?? null;

describe('parseFeedDate: RFC 822 and relatives', () => {
  it.each([
    ['Sun, 19 May 2024 10:00:00 GMT', '2024-05-19T10:00:00.000Z'],
    ['Sun, 19 May 2024 10:00:00 +0200', '2024-05-19T08:00:00.000Z'],
    ['Sat, 18 May 2024 20:00:00 -0400', '2024-05-19T00:00:00.000Z'],
    ['Sun, 19 May 2024 10:00:00 UT', '2024-05-19T10:00:00.000Z'],
    ['Sun, 19 May 2024 10:00:00 Z', '2024-05-19T10:00:00.000Z'],
    ['19 May 2024 10:00 +0000', '2024-05-19T10:00:00.000Z'],
    ['Mon, 5 Jan 2009 7:05:00 PST', '2009-01-05T15:05:00.000Z'],
    ['Wed, 02 Oct 2002 08:00:00 EST', '2002-10-02T13:00:00.000Z'],
    ['Wed, 02 Oct 2002 08:00:00 EDT', '2002-10-02T12:00:00.000Z'],
    ['Wed, 02 Oct 2002 08:00:00 CST', '2002-10-02T14:00:00.000Z'],
    ['Wed, 02 Oct 2002 08:00:00 MDT', '2002-10-02T14:00:00.000Z'],
    // zone letters without the standard/daylight letter
    ['19 May 24 10:00 PT', '2024-05-19T18:00:00.000Z'],
    ['19 May 24 10:00 ET', '2024-05-19T15:00:00.000Z'],
    ['Tue, 10 Jun 2003 04:00:00 MEST', '2003-06-10T02:00:00.000Z'],
    ['Tue, 10 Jan 2003 04:00:00 MET', '2003-01-10T03:00:00.000Z'],
    ['Tue, 10 Jun 2003 04:00:00 CEST', '2003-06-10T02:00:00.000Z'],
    // missing zone → UTC
    ['Sun, 19 May 2024 10:00:00', '2024-05-19T10:00:00.000Z'],
    ['19 May 2024', '2024-05-19T00:00:00.000Z'],
    // two-digit years (RFC 2822: < 50 → 20xx)
    ['Fri, 31 Dec 99 23:59:59 GMT', '1999-12-31T23:59:59.000Z'],
    ['Mon, 01 Jan 07 00:00:00 GMT', '2007-01-01T00:00:00.000Z'],
    // full month and weekday names, odd separators
    ['Sunday, 19 May 2024 10:00:00 GMT', '2024-05-19T10:00:00.000Z'],
    ['Sun, 19 June 2024 10:00:00 GMT', '2024-06-19T10:00:00.000Z'],
    ['Sun, 19-May-2024 10:00:00 GMT', '2024-05-19T10:00:00.000Z'],
    ['Tue, 10 Sept 2003 04:00:00 GMT', '2003-09-10T04:00:00.000Z'],
    ['Sun, 19 May 2024 10:00:00 GMT+0200', '2024-05-19T08:00:00.000Z'],
    ['Sun, 19 May 2024 10:00:00 UTC+05:30', '2024-05-19T04:30:00.000Z'],
    ['Wed, 02 Oct 2002 13:00:00 GMT+1', '2002-10-02T12:00:00.000Z'],
    // asctime and JavaScript Date#toString
    ['Sun May 19 10:00:00 2024', '2024-05-19T10:00:00.000Z'],
    ['Sun May 19 2024 10:00:00 GMT+0200 (Central European Summer Time)', '2024-05-19T08:00:00.000Z'],
    // US style with ordinal and am/pm
    ['May 19th, 2024 at 10:00 PM', '2024-05-19T22:00:00.000Z'],
    ['May 19, 2024 12:15 AM EST', '2024-05-19T05:15:00.000Z'],
    // single-digit minutes and seconds (feedparser's RFC 822 reader accepts them too)
    ['Sun, 16 Dec 2012 1:2:3 PST', '2012-12-16T09:02:03.000Z'],
    // Perforce-style numeric date with weekday and zone, SQL Server style fraction
    ['Fri, 2006/09/15 08:19:53 EDT', '2006-09-15T12:19:53.000Z'],
    ['2004-07-08 23:56:58.0', '2004-07-08T23:56:58.000Z'],
    ['03 Apr 02 1500 GMT', '2002-04-03T15:00:00.000Z'],
    ['2009-01-12T5:40:14-05:00', '2009-01-12T10:40:14.000Z'],
    // leap second lands on :59
    ['Sat, 31 Dec 2016 23:59:60 GMT', '2016-12-31T23:59:59.000Z'],
  ])('%s', (input, expected) => {
    expect(iso(input)).toBe(expected);
  });
});

describe('parseFeedDate: W3C-DTF / ISO 8601', () => {
  it.each([
    ['2024-05-19T10:00:00Z', '2024-05-19T10:00:00.000Z'],
    ['2024-05-19T10:00:00+02:00', '2024-05-19T08:00:00.000Z'],
    ['2024-05-19T10:00:00-0530', '2024-05-19T15:30:00.000Z'],
    ['2024-05-19T10:00:00+02', '2024-05-19T08:00:00.000Z'],
    ['2024-05-19T10:00:00.123456Z', '2024-05-19T10:00:00.123Z'],
    ['2024-05-19T10:00Z', '2024-05-19T10:00:00.000Z'],
    ['2024-05-19 10:00:00', '2024-05-19T10:00:00.000Z'],
    ['2024-05-19t10:00:00z', '2024-05-19T10:00:00.000Z'],
    ['2024-05-19', '2024-05-19T00:00:00.000Z'],
    ['2024-05', '2024-05-01T00:00:00.000Z'],
    ['2024', '2024-01-01T00:00:00.000Z'],
    ['20240519T101500Z', '2024-05-19T10:15:00.000Z'],
    ['2024-05-19T24:00:00Z', '2024-05-20T00:00:00.000Z'],
    ['  2024-05-19T10:00:00Z  ', '2024-05-19T10:00:00.000Z'],
  ])('%s', (input, expected) => {
    expect(iso(input)).toBe(expected);
  });
});

describe('parseFeedDate: IANA zones and localised names', () => {
  it.each([
    ['2024-05-19 10:00:00 Europe/Berlin', '2024-05-19T08:00:00.000Z'],
    ['2024-01-19 10:00:00 Europe/Berlin', '2024-01-19T09:00:00.000Z'],
    ['2024-01-19 10:00:00 America/New_York', '2024-01-19T15:00:00.000Z'],
    ['Sun, 19 May 2024 10:00:00 Asia/Kolkata', '2024-05-19T04:30:00.000Z'],
    ['19. Mai 2024 10:00', '2024-05-19T10:00:00.000Z'],
    ['Mo, 04 Mär 2024 10:00:00 +0100', '2024-03-04T09:00:00.000Z'],
    ['Dienstag, 3. Dezember 2024 08:15:00 MEZ', '2024-12-03T07:15:00.000Z'],
    ['mar. 19 mai 2024 10:00:00 +0200', '2024-05-19T08:00:00.000Z'],
    ['19 février 2024 10:00', '2024-02-19T10:00:00.000Z'],
    ['19 de mayo de 2024', '2024-05-19T00:00:00.000Z'],
    ['lun, 19 ago 2024 10:00:00 +0200', '2024-08-19T08:00:00.000Z'],
    ['19 giugno 2024 10:00', '2024-06-19T10:00:00.000Z'],
    ['seg, 19 set 2024 10:00:00 -0300', '2024-09-19T13:00:00.000Z'],
    ['19 maart 2024 10:00', '2024-03-19T10:00:00.000Z'],
    ['19.05.2024 10:00', '2024-05-19T10:00:00.000Z'],
    ['2024/05/19 10:00:00', '2024-05-19T10:00:00.000Z'],
    ['19/05/2024', '2024-05-19T00:00:00.000Z'],
  ])('%s', (input, expected) => {
    expect(iso(input)).toBe(expected);
  });
});

describe('parseFeedDate: never invents a date', () => {
  it.each([
    ['', 'empty'],
    ['   ', 'blank'],
    ['31 Feb 2024 10:00:00 GMT', 'day past the end of February (Date.parse rolls over)'],
    ['Thu, 29 Feb 2023 10:00:00 GMT', 'not a leap year'],
    ['2024-02-30', 'impossible ISO date'],
    ['2024-13-01', 'month 13'],
    ['2024-00-10', 'month 0'],
    ['Sun, 19 May 2024 25:00:00 GMT', 'hour 25'],
    ['Sun, 19 May 2024 10:61:00 GMT', 'minute 61'],
    ['Sun, 19 May 2024 10:00:00 XYZ', 'unknown zone'],
    ['Sun, 19 May 2024 10:00:00 +2500', 'offset out of range'],
    ['2024-05-19 10:00:00 Mars/Olympus', 'unknown IANA zone'],
    ['foo 1', 'Date.parse reads this as 2001'],
    ['1', 'a bare number'],
    ['12345678', 'an id, not a date'],
    ['05/06/2024', 'ambiguous day/month order'],
    ['May 2024', 'no day'],
    ['19 2024', 'no month'],
    ['yesterday', 'relative'],
    ['Sun, 19 May 2024 13:00 PM', 'pm with a 24-hour clock'],
    ['x'.repeat(500), 'absurdly long'],
  ])('%s (%s)', (input) => {
    expect(parseFeedDate(input)).toBeNull();
  });

  it('returns a Date, not a string', () => {
    expect(parseFeedDate('2024-05-19T10:00:00Z')).toBeInstanceOf(Date);
  });
});
