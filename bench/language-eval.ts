/**
 * Language accuracy on the labelled headline set (language-set.ts), in the conditions an
 * aggregator meets: no prior at all; the feed's declaration as the data has it; the
 * publisher's language known (the right one); and a wrong declaration on non-English feeds (a
 * CMS default of `en`), which the text must overrule. `detect` is the function under test.
 */
import type { LangRow } from './language-set.js';

type Detect = (text: string, declared: string | null, publisher: string | null) => string;
type Figures = Record<string, number | string>;

const CONDITIONS: Record<string, (r: LangRow) => [string | null, string | null]> = {
  no_prior: () => [null, null],
  as_declared: (r) => [r.declared, null],
  publisher_known: (r) => [null, r.lang],
};

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}

export function languageAccuracy(rows: readonly LangRow[], detect: Detect, prefix: string): Figures {
  const f: Figures = {};
  for (const [name, prior] of Object.entries(CONDITIONS)) {
    let ok = 0;
    const per = new Map<string, [number, number]>();
    const wrong = new Map<string, number>();
    for (const r of rows) {
      const [declared, publisher] = prior(r);
      const got = detect(r.text, declared, publisher);
      const x = per.get(r.source) ?? [0, 0];
      x[1]++;
      if (got === r.lang) { ok++; x[0]++; } else wrong.set(`${r.lang}>${got}`, (wrong.get(`${r.lang}>${got}`) ?? 0) + 1);
      per.set(r.source, x);
    }
    f[`${prefix}_${name}`] = round(ok / rows.length);
    if (name === 'no_prior') {
      for (const [s, [c, t]] of per) f[`${prefix}_${name}_${s}`] = round(c / t);
    }
    f[`${prefix}_${name}_errors`] = [...wrong].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${v}`).join(', ');
  }
  // non-English feeds declared `en` by mistake: the text must win
  const other = rows.filter((r) => r.lang !== 'en');
  f[`${prefix}_wrong_en_declared_non_english`] = round(other.filter((r) => detect(r.text, 'en', null) === r.lang).length / Math.max(1, other.length));
  return f;
}
