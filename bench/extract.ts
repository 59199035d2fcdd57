/**
 * Page metadata extraction on real article pages (Scrapinghub article-extraction-benchmark,
 * read from NEWSAGG_DATA, never copied) beside a naive regex baseline measured in the same run,
 * plus thumbnail throughput beside a bare sharp resize reference.
 *
 * The ground truth holds article bodies and URLs only, so quality here is "how often each
 * field is found" and "how often the canonical URL equals the page's known URL"; a found
 * date is not checked against a true date.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import sharp from 'sharp';
import { extractPageMetadata } from '../src/actors/html/metadata.js';
import { makeThumbnail } from '../src/actors/thumbs/thumbnail.js';

type Figures = Record<string, number | string | boolean>;

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** The baseline a quick script would write: first <title>, og:image and article:published_time by regex. */
function naive(html: string): { title: string | null; image: string | null; date: string | null; description: string | null } {
  const pick = (re: RegExp): string | null => re.exec(html)?.[1]?.trim() || null;
  return {
    title: pick(/<title[^>]*>([^<]*)<\/title>/i),
    image: pick(/<meta[^>]+property=["']og:image["'][^>]+content=["']([^"']+)/i),
    date: pick(/<meta[^>]+property=["']article:published_time["'][^>]+content=["']([^"']+)/i),
    description: pick(/<meta[^>]+name=["']description["'][^>]+content=["']([^"']*)/i),
  };
}

function sameUrl(a: string, b: string): boolean {
  const norm = (u: string): string => {
    try {
      const x = new URL(u);
      return `${x.hostname.replace(/^www\./, '')}${x.pathname.replace(/\/+$/, '')}`;
    } catch {
      return u;
    }
  };
  return norm(a) === norm(b);
}

export async function run(): Promise<Figures> {
  const dataDir = resolve(root, process.env['NEWSAGG_DATA'] ?? '../shared/data');
  const dir = join(dataDir, 'article-extraction-benchmark');
  const out: Figures = { quiet_at_start: loadavg()[0]! < 0.5 };
  if (!existsSync(join(dir, 'ground-truth.json'))) {
    console.error(`extract: ${dir} missing (set NEWSAGG_DATA); skipping the metadata part`);
    out['skipped'] = 'article-extraction-benchmark data missing';
  } else {
    const truth = JSON.parse(readFileSync(join(dir, 'ground-truth.json'), 'utf8')) as Record<string, { url: string }>;
    const pages = readdirSync(join(dir, 'html'))
      .filter((f) => f.endsWith('.html.gz'))
      .map((f) => ({ id: f.replace('.html.gz', ''), html: gunzipSync(readFileSync(join(dir, 'html', f))).toString('utf8') }))
      .filter((p) => truth[p.id]);
    const n = pages.length;
    const count = { title: 0, date: 0, image: 0, description: 0, canonical: 0, canonicalMatch: 0, language: 0 };
    const base = { title: 0, date: 0, image: 0, description: 0 };
    for (const p of pages) {
      const m = extractPageMetadata(p.html, truth[p.id]!.url);
      if (m.title) count.title++;
      if (m.publishedAt) count.date++;
      if (m.image) count.image++;
      if (m.description) count.description++;
      if (m.language) count.language++;
      if (m.canonical) {
        count.canonical++;
        if (sameUrl(m.canonical, truth[p.id]!.url)) count.canonicalMatch++;
      }
      const b = naive(p.html);
      if (b.title) base.title++;
      if (b.date && Number.isFinite(Date.parse(b.date))) base.date++;
      if (b.image) base.image++;
      if (b.description) base.description++;
    }
    Object.assign(out, {
      pages: n,
      title_rate: count.title / n, date_rate: count.date / n, image_rate: count.image / n,
      description_rate: count.description / n, language_rate: count.language / n,
      canonical_rate: count.canonical / n, canonical_matches_url_rate: count.canonicalMatch / n,
      baseline_title_rate: base.title / n, baseline_date_rate: base.date / n,
      baseline_image_rate: base.image / n, baseline_description_rate: base.description / n,
    });
    const bytes = pages.reduce((s, p) => s + p.html.length, 0);
    const timeIt = (f: (html: string, url: string) => unknown, rounds: number): number => {
      const t = performance.now();
      for (let r = 0; r < rounds; r++) for (const p of pages) f(p.html, truth[p.id]!.url);
      return (rounds * n) / ((performance.now() - t) / 1000);
    };
    timeIt(extractPageMetadata, 1); // warm up
    timeIt(naive, 1);
    const ours = timeIt(extractPageMetadata, 3);
    const ref = timeIt(naive, 3);
    Object.assign(out, {
      pages_per_s: ours, baseline_regex_pages_per_s: ref, ratio_vs_regex_baseline: ours / ref,
      mb_per_s: (ours * bytes) / n / 1e6,
    });
  }

  // thumbnails: our full pipeline (sniff, metadata, limits, attention crop, WebP) vs a bare resize
  const raw = Buffer.alloc(1200 * 800 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 7 + (i >> 11)) & 0xff;
  const jpeg = await sharp(raw, { raw: { width: 1200, height: 800, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
  const N = 20;
  await makeThumbnail(jpeg);
  let t = performance.now();
  for (let i = 0; i < N; i++) await makeThumbnail(jpeg);
  const thumbsPerS = N / ((performance.now() - t) / 1000);
  t = performance.now();
  for (let i = 0; i < N; i++) await sharp(jpeg).resize(400, 225).webp().toBuffer();
  const bareResize = N / ((performance.now() - t) / 1000);
  Object.assign(out, { thumbs_per_s: thumbsPerS, bare_sharp_resize_per_s: bareResize, thumbs_ratio_vs_bare_resize: thumbsPerS / bareResize });
  return out;
}
