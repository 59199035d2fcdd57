/**
 * Writes config/common-nouns.json: lower-case English common nouns (tagged NN or NNS, never NNP,
 * by the en-lexicon package, MIT, built on Eric Brill's lexicon), split into plural and other
 * nouns. Entity extraction reads it to tell a sentence-initial common noun ("Firefighters in
 * Turkey...") from a name. Run: node --import tsx bench/train-common-nouns.ts
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export async function commonNouns(): Promise<{ plural: string[]; singular: string[] }> {
  const { lexicon } = (await import('en-lexicon')) as unknown as { lexicon: Record<string, string> };
  const plural: string[] = [];
  const singular: string[] = [];
  for (const [word, tagList] of Object.entries(lexicon)) {
    if (word.length < 3 || !/^[a-z]+$/.test(word)) continue;
    const tags = String(tagList).split('|');
    if (tags.includes('NNP') || tags.includes('NNPS')) continue;
    if (tags.includes('NNS') && word.endsWith('s')) plural.push(word);
    else if (tags.includes('NN')) singular.push(word);
  }
  return { plural: plural.sort(), singular: singular.sort() };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void commonNouns().then((n) => {
    const out = resolve(fileURLToPath(new URL('..', import.meta.url)), 'config/common-nouns.json');
    writeFileSync(out, JSON.stringify({ about: 'lower-case English common nouns from the en-lexicon package (MIT); see bench/train-common-nouns.ts', ...n }) + '\n');
    console.log(`${out}: ${n.plural.length} plural, ${n.singular.length} other nouns`);
  });
}
