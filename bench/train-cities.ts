/**
 * Writes config/cities.json: cities of at least 250,000 people (the city-timezones package, MIT,
 * built on Natural Earth's public-domain populated places) in the gazetteer's countries, as
 * [name, ISO 3166-1 code]. Left out: names that are English words or given names ("Nice",
 * "Reading", "Florence"), names two countries share at similar size, and cities the curated
 * gazetteer already has. The gazetteer adds them after its own rows.
 * Run: node --import tsx bench/train-cities.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MIN_POP = 250_000;

export async function majorCities(): Promise<[string, string][]> {
  const { cityMapping } = (await import('city-timezones')) as unknown as { cityMapping: { city_ascii: string; iso2: string; pop: number }[] };
  const { lexicon } = (await import('en-lexicon')) as unknown as { lexicon: Record<string, string> };
  const gaz = JSON.parse(readFileSync(resolve(ROOT, 'config/gazetteer.json'), 'utf8')) as { countries: [string, string, string, string[], string[], string[]][] };
  const given = new Set((JSON.parse(readFileSync(resolve(ROOT, 'config/given-names.json'), 'utf8')) as { names: string[] }).names);
  const countries = new Set(gaz.countries.map((c) => c[0]));
  const known = new Set(gaz.countries.flatMap((c) => [c[1], ...c[3], ...c[4], ...c[5]]).map((n) => n.toLowerCase()));
  const byName = new Map<string, { name: string; iso2: string; pop: number }[]>();
  for (const c of cityMapping) {
    const name = c.city_ascii.trim();
    if (!/^[A-Z][A-Za-z' -]+$/.test(name)) continue;
    const list = byName.get(name.toLowerCase()) ?? [];
    list.push({ name, iso2: c.iso2, pop: c.pop });
    byName.set(name.toLowerCase(), list);
  }
  const out: [string, string][] = [];
  for (const [low, list] of byName) {
    list.sort((a, b) => b.pop - a.pop);
    const top = list[0]!;
    if (top.pop < MIN_POP || low.length < 4 || !countries.has(top.iso2) || known.has(low)) continue;
    // a namesake at least a third as big elsewhere: the name alone does not say which
    if (list.length > 1 && list[1]!.pop * 3 > top.pop) continue;
    if (lexicon[low] !== undefined || given.has(low) || low.split(/[ -]/).some((w) => given.has(w) && !low.includes(' '))) continue;
    out.push([top.name, top.iso2]);
  }
  return out.sort((a, b) => (a[1] + a[0] < b[1] + b[0] ? -1 : 1));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void majorCities().then((cities) => {
    writeFileSync(resolve(ROOT, 'config/cities.json'), JSON.stringify({ about: 'cities of 250,000 people or more from the city-timezones package (MIT; Natural Earth, public domain); see bench/train-cities.ts. Rows are [name, iso].', cities }) + '\n');
    console.log(`config/cities.json: ${cities.length} cities`);
  });
}
