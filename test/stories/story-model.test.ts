import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { enrich } from '../../src/actors/enrich/enrich.js';
import type { ArticleInput } from '../../src/actors/enrich/text.js';
import { StoryClusterer } from '../../src/actors/stories/clusterer.js';
import { checkModel, FEATURES, loadStoryModel, MODEL_SHAPES, MODEL_URL, probability } from '../../src/actors/stories/story-model.js';
import { centralLeadValue, isStraightReport, pickCentralLead, stripPieceLabel, type CentralCandidate } from '../../src/actors/stories/lead.js';
import { checkStream, clusterWith } from '../../bench/train-stories.js';

/**
 * The learned story similarity (issue 21): the committed model file, pairs that must and must
 * not join (invented reports, headline + snippet as a feed gives them, and bare headlines), and
 * the lead a story shows.
 */

const H = 3_600_000;
const T0 = Date.UTC(2026, 4, 4, 6);
let seq = 0;

function art(title: string, summary: string, hoursAfter: number, url?: string): ArticleInput {
  seq++;
  return { id: `m${seq}`, url: url ?? `https://outlet${seq}.example/n/${seq}`, title, summary, publisher: `outlet${seq % 5}`, published_at: T0 + hoursAfter * H };
}

function feed(c: StoryClusterer, a: ArticleInput): string {
  const e = enrich(a);
  return c.add(a, { entities: e.entities, places: e.places, category: e.category, region: e.region }).storyId;
}

function clusterer(): StoryClusterer {
  const c = new StoryClusterer();
  const bg = [
    ['Stocks edge higher as investors weigh jobs data', 'Shares rose on Monday as traders looked ahead to figures due later in the week.'],
    ['Government unveils plan to cut taxes for families', 'The finance ministry said the measures would take effect next year.'],
    ['Team wins final match of the season at home', 'The coach praised the players after a hard-fought game in front of a full stadium.'],
    ['New phone goes on sale with a bigger screen', 'The company said the device would cost less than last year\'s model.'],
  ];
  bg.forEach(([t, s], i) => feed(c, art(t!, s!, -30 + i)));
  return c;
}

describe('the committed story model', () => {
  it('loads, fits this build\'s features, and has a threshold per shape', () => {
    const m = loadStoryModel();
    expect(m).not.toBeNull();
    expect(m!.features).toEqual([...FEATURES]);
    for (const s of MODEL_SHAPES) {
      expect(m!.shapes[s].weights).toHaveLength(FEATURES.length);
      expect(m!.shapes[s].threshold).toBeGreaterThan(0);
      expect(m!.shapes[s].threshold).toBeLessThan(1);
    }
  });

  it('refuses a file that does not fit, with a clear message', () => {
    expect(() => checkModel({ features: ['bias'], shapes: {} }, 'bad.json')).toThrow(/bad.json: features .* do not match/);
    expect(() => checkModel(null)).toThrow(/not a story model/);
  });

  it('reproduces its recorded figures on the fixed simulated fold', async () => {
    const m = JSON.parse(readFileSync(MODEL_URL, 'utf8')) as { meta: { check: { b3_f1: number; b3_precision: number } } };
    const got = clusterWith(await checkStream(), checkModel(m));
    expect(got.f1).toBeCloseTo(m.meta.check.b3_f1, 5);
    expect(got.precision).toBeCloseTo(m.meta.check.b3_precision, 5);
  }, 120_000);

  it('rises with closer wording and falls with a conflict (a feature, not a veto)', () => {
    const m = loadStoryModel()!.shapes.snippet;
    const x = new Float64Array(FEATURES.length);
    x[0] = 1;
    const at = (name: string): number => FEATURES.indexOf(name as (typeof FEATURES)[number]);
    x[at('theme_share')] = 1;
    x[at('content_centroid')] = 0.2;
    const low = probability(m, x);
    x[at('content_centroid')] = 0.6;
    x[at('content_exemplar')] = 0.6;
    const high = probability(m, x);
    expect(high).toBeGreaterThan(low);
    x[at('names_differ')] = 1;
    x[at('content_x_names_differ')] = 0.6;
    expect(probability(m, x)).toBeLessThan(high);
  });
});

type Pair = [name: string, story: [string, string][], article: [string, string], join: boolean];

describe('pairs that must and must not join', () => {
  it.each<Pair>([
    ['the same quake in other words', [
      ['Magnitude 6.8 earthquake strikes near Valparaiso', 'A magnitude 6.8 earthquake struck off the coast near Valparaiso, Chile, on Monday, killing at least 12 people, officials said.'],
      ['Chile quake: rescuers search for survivors in Valparaiso', 'Rescue teams in Valparaiso dug through collapsed buildings after Monday\'s magnitude 6.8 earthquake killed at least 12.'],
    ], ['Death toll from Valparaiso earthquake climbs to 20', 'The number of people killed by the magnitude 6.8 earthquake near Valparaiso in Chile rose to 20, officials said on Tuesday.'], true],
    ['a quake in another city, written alike', [
      ['Magnitude 6.8 earthquake strikes near Valparaiso', 'A magnitude 6.8 earthquake struck off the coast near Valparaiso, Chile, on Monday, killing at least 12 people, officials said.'],
    ], ['Magnitude 6.1 earthquake strikes near Izmir', 'A magnitude 6.1 earthquake struck near Izmir, Turkey, on Monday, killing at least 4 people, officials said.'], false],
    ['another person\'s arrest, written alike', [
      ['Actress Mira Castell checks into rehab', 'Actress Mira Castell has checked into a treatment centre in Malibu, her publicist said on Friday.'],
    ], ['Singer Tom Aldane checks into rehab', 'Singer Tom Aldane has checked into a treatment centre in Arizona, his manager said on Friday.'], false],
    ['an Opinion piece about the same event', [
      ['Parliament passes sweeping data privacy law', 'Lawmakers in Ottawa passed a sweeping data privacy law on Wednesday that limits how companies collect personal information.'],
      ['Canada adopts strict new data privacy rules', 'Canada\'s parliament approved the data privacy law by a wide margin, giving regulators power to fine companies.'],
    ], ['Opinion: Canada\'s data privacy law is long overdue', 'The data privacy law passed by parliament in Ottawa this week finally limits how companies collect personal information.'], true],
    ['a club\'s match against its transfer news', [
      ['Riverton United beat Eastport 3-1 to go top', 'Riverton United beat Eastport 3-1 on Saturday to go top of the league, with two goals from Dario Venn.'],
    ], ['Riverton United sign midfielder Pablo Serra', 'Riverton United have signed midfielder Pablo Serra from a Spanish club on a four-year contract, the club said on Tuesday.'], false],
  ])('%s', (_name, story, [title, summary], join) => {
    const c = clusterer();
    const ids = story.map(([t, s], i) => feed(c, art(t, s, i * 0.5)));
    expect(new Set(ids).size).toBe(1);
    const got = feed(c, art(title, summary, story.length * 0.5));
    expect(got === ids[0]).toBe(join);
  });

  // Known gap: snippets are still scored by the hand-weighted profile (the model did not keep the
  // simulator as pure, see the model file's meta.calibration), and that profile joins an
  // election in another country told in the same words. The v4 fit with snippets kept them apart.
  it.fails('an election in another country, written alike (known gap of the hand profile)', () => {
    const c = clusterer();
    const story: [string, string][] = [
      ['Voters in Kenya head to the polls in tight presidential race', 'Kenyans voted on Tuesday in a presidential election between William Otieno and Grace Wanjiru, with results due within a week.'],
      ['Kenya election: long queues at polling stations', 'Long queues formed outside polling stations across Kenya as voters chose between William Otieno and Grace Wanjiru.'],
    ];
    const ids = story.map(([t, s], i) => feed(c, art(t, s, i * 0.5)));
    expect(new Set(ids).size).toBe(1);
    const got = feed(c, art('Voters in Peru head to the polls in tight presidential race', 'Peruvians voted on Sunday in a presidential election between Carlos Mendoza and Lucia Paredes, with results due within days.', 1));
    expect(got).not.toBe(ids[0]);
  });
});

describe('leads', () => {
  const cand = (over: Partial<CentralCandidate>): CentralCandidate => ({ articleId: 'x', publisher: 'p', time: 0, depth: 300, duplicate: false, overlap: 0, centrality: 0.5, straight: true, eligible: true, ...over });

  it.each([
    ['Opinion: Why the law matters', false],
    ['ANALYSIS - What the vote means', false],
    ['Live: Results as they come in', false],
    ['Explainer: How the new rules work', false],
    ['Parliament passes data privacy law', true],
    ['Live music returns to the city square', true],
  ])('%s is a straight report: %s', (title, straight) => {
    expect(isStraightReport(title)).toBe(straight);
  });

  it('reads the section of the URL too, and strips a label', () => {
    expect(isStraightReport('Why the law matters', 'https://news.example/opinion/2026/05/law')).toBe(false);
    expect(stripPieceLabel('Opinion: Why the law matters')).toBe('Why the law matters');
  });

  it('prefers the most central straight report, never one the model would not join', () => {
    const central = cand({ articleId: 'central', centrality: 0.8 });
    const edge = cand({ articleId: 'edge', centrality: 0.3 });
    const opinion = cand({ articleId: 'opinion', centrality: 0.9, straight: false });
    const outsider = cand({ articleId: 'outsider', centrality: 0.95, eligible: false });
    expect(pickCentralLead([edge, opinion, outsider, central], edge, 0)?.articleId).toBe('central');
    expect(centralLeadValue(outsider, 0)).toBe(-1);
  });

  it('a story opened by an Opinion piece is led by a straight report once one joins, and its title follows', () => {
    const c = clusterer();
    const a = art('Opinion: The privacy law is long overdue', 'Lawmakers in Ottawa passed a sweeping data privacy law on Wednesday that limits how companies collect personal information.', 0);
    const id = feed(c, a);
    expect(c.get(id)!.lead_article_id).toBe(a.id);
    const b = art('Parliament passes sweeping data privacy law', 'Lawmakers in Ottawa passed a sweeping data privacy law on Wednesday that limits how companies collect personal information, officials said.', 0.5);
    expect(feed(c, b)).toBe(id);
    expect(c.get(id)!.lead_article_id).toBe(b.id);
    expect(c.get(id)!.title).toBe(b.title);
  });
});
