import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent } from '../../src/simulator/events.js';
import { Rng } from '../../src/simulator/prng.js';
import { EVENT_KINDS, vary } from '../../src/simulator/templates.js';
import { startSimulator, type Simulator, type TruthItem } from '../../src/simulator/index.js';
import { headlineStyleOf, swapWord, syndicate, titleCase, writeOriginal, writeWire } from '../../src/simulator/writer.js';
import { T0 } from './helpers.js';

const AGENCY = { name: 'Test Wire Agency', short: 'TWA' };

describe('writing', () => {
  it('every template fills without leftover slots, for every kind', () => {
    for (const k of EVENT_KINDS) {
      for (let i = 0; i < 20; i++) {
        const ev = createEvent(new Rng(`${k.kind}-${i}`), `e${i}`, T0, { kind: k.kind });
        for (const s of [writeWire(ev, AGENCY, `w${i}`), writeOriginal(ev, `o${i}`)]) {
          const text = [s.title, ...s.paragraphs].join(' ');
          expect(text, k.kind).not.toMatch(/[{}]/);
          expect(s.title.charAt(0)).toBe(s.title.charAt(0).toUpperCase());
        }
      }
    }
  });

  it('syndicated copies make exactly the edits they report', () => {
    const ev = createEvent(new Rng('edits'), 'e1', T0, { kind: 'earthquake' });
    const wire = writeWire(ev, AGENCY, 'w1');
    expect(wire.paragraphs[0]).toMatch(new RegExp(`^${ev.place.city.toUpperCase()} \\(TWA\\) - `));
    const seen = { suffix: 0, update: 0, swappedWord: 0, datelineDropped: 0, trimmed: 0, credit: 0 };
    for (let i = 0; i < 300; i++) {
      const { story, edits } = syndicate(wire, 'The Test Outlet', `copy-${i}`);
      for (const k of Object.keys(seen) as (keyof typeof seen)[]) if (edits[k]) seen[k]++;
      expect(/ [|-] The Test Outlet$/.test(story.title)).toBe(edits.suffix);
      expect(/^UPDATE \d-/.test(story.title)).toBe(edits.update);
      expect(story.paragraphs[0]?.includes('(TWA) - ')).toBe(!edits.datelineDropped);
      expect(story.paragraphs.at(-1) === 'Additional reporting by The Test Outlet staff.').toBe(edits.credit);
      const expectedLength = wire.paragraphs.length - (edits.trimmed ? 1 : 0) + (edits.credit ? 1 : 0);
      expect(story.paragraphs).toHaveLength(expectedLength);
      const core = story.title.replace(/^UPDATE \d-/, '').replace(/ [|-] The Test Outlet$/, '');
      if (!edits.swappedWord) expect(core).toBe(wire.title);
    }
    for (const [k, n] of Object.entries(seen)) expect(n, k).toBeGreaterThan(10);
  });

  it('outlets write one event in their own words: headline styles and paraphrased leads', () => {
    for (const kind of ['earthquake', 'protest', 'flood']) {
      const ev = createEvent(new Rng(kind), 'e1', T0, { kind });
      const stories = Array.from({ length: 60 }, (_, i) => writeOriginal(ev, `o${i}`));
      expect(new Set(stories.map((s) => s.title.replace(/^\w+: /, ''))).size, kind).toBeGreaterThanOrEqual(6);
      expect(new Set(stories.map((s) => s.paragraphs[0])).size, kind).toBeGreaterThanOrEqual(5);
    }
  });

  it.each([
    ['A [strong|powerful] quake', ['A strong quake', 'A powerful quake']],
    ['[Police|Officials] said [it|this]', ['Police said it', 'Police said this', 'Officials said it', 'Officials said this']],
    ['no choice here', ['no choice here']],
  ])('vary(%s) picks one paraphrase of each group', (pattern, all) => {
    const seen = new Set(Array.from({ length: 80 }, (_, i) => vary(pattern, new Rng(i))));
    expect([...seen].sort()).toEqual([...all].sort());
  });

  it.each([
    ['Strong quake rattles Casablanca, 60 dead', 'Strong Quake Rattles Casablanca, 60 Dead'],
    ['"We lost everything": survivors of the flood speak', '"We Lost Everything": Survivors of the Flood Speak'],
    ['Analysis: the price of fuel in a crisis', 'Analysis: The Price of Fuel in a Crisis'],
  ])('titleCase(%s)', (headline, expected) => {
    expect(titleCase(headline)).toBe(expected);
  });

  it('about a quarter of outlets write Title Case headlines, fixed per outlet', () => {
    const styles = Array.from({ length: 400 }, (_, i) => headlineStyleOf(`pub-${i}`));
    const share = styles.filter((s) => s === 'title').length / styles.length;
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.35);
    expect(headlineStyleOf('pub-7')).toBe(headlineStyleOf('pub-7'));
  });

  it.each([
    ['Officials says the toll rises', /^Authorities says|said the toll|climbs$/],
    ['Nothing to change here', /^Nothing to change here$/],
  ])('swapWord(%s)', (text, expected) => {
    expect(swapWord(text, new Rng(1))).toMatch(expected);
  });
});

describe('the simulated world', () => {
  let sim: Simulator;
  let items: TruthItem[];
  beforeAll(async () => {
    sim = await startSimulator({ publishers: 200, seed: 'world', now: () => T0 });
    sim.tick(6 * 3_600_000);
    items = sim.truth().items;
  });
  afterAll(async () => sim.close());

  it('copies belong to a wire story whose original the agency published, about the same event', () => {
    const wires = new Map(items.filter((i) => i.role === 'wire').map((i) => [i.wire_id, i]));
    const copies = items.filter((i) => i.role === 'copy');
    expect(copies.length).toBeGreaterThan(50);
    for (const c of copies) {
      const original = wires.get(c.wire_id);
      expect(original, c.id).toBeDefined();
      expect(original?.event_id).toBe(c.event_id);
      expect(original?.published_at).toBeLessThanOrEqual(c.published_at);
      expect(c.wire_original_id).toBe(original?.id);
    }
    // an outlet runs a given wire story at most once
    const pairs = copies.map((c) => `${c.publisher_id} ${c.wire_id}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it('events draw coverage from several outlets, mixing wire copies and own articles', () => {
    const byEvent = new Map<string, TruthItem[]>();
    for (const i of items) byEvent.set(i.event_id, [...(byEvent.get(i.event_id) ?? []), i]);
    const big = [...byEvent.values()].filter((g) => new Set(g.map((i) => i.publisher_id)).size >= 5);
    expect(big.length).toBeGreaterThan(5);
    expect(big.some((g) => g.some((i) => i.role === 'copy') && g.some((i) => i.role === 'original'))).toBe(true);
  });

  it('twin events share a kind but not people, and a place only when they are about different things', () => {
    const events = sim.truth().events;
    const twins = events.filter((e) => e.twin_of !== null);
    expect(twins.length).toBeGreaterThan(0);
    let sameCity = 0;
    for (const t of twins) {
      const of = events.find((e) => e.id === t.twin_of);
      expect(of?.kind).toBe(t.kind);
      expect(of?.entities.people).not.toEqual(t.entities.people);
      if (of?.city === t.city) {
        sameCity++;
        expect(t.topic).not.toBeNull();
        expect(of.topic).not.toBe(t.topic);
      }
    }
    // two marches in one city on one day happen (the over-merging case a reader notices first)
    expect(sameCity).toBeGreaterThan(0);
  });

  it('publishing rates are a realistic mix: most outlets quiet, a few very active', () => {
    const rates = sim.publishers.filter((p) => p.kind === 'outlet').map((p) => p.items_per_hour).sort((a, b) => a - b);
    expect(rates[Math.floor(rates.length / 2)]).toBeLessThan(1);
    expect(rates.at(-1)).toBeGreaterThan(8);
    const t = sim.now();
    const lastHour = new Set(items.filter((i) => i.published_at > t - 3_600_000).map((i) => i.publisher_id));
    expect(lastHour.size / sim.publishers.length).toBeLessThan(0.6);
  });

  it('outlets mostly write in their own section', () => {
    const section = new Map(sim.publishers.map((p) => [p.id, p.section]));
    const outletItems = items.filter((i) => sim.publishers.find((p) => p.id === i.publisher_id)?.kind === 'outlet');
    const own = outletItems.filter((i) => i.category === section.get(i.publisher_id)).length;
    expect(own / outletItems.length).toBeGreaterThan(0.5);
  });

  it('a breaking-news burst puts many outlets on one event within the window', () => {
    const before = sim.truth().items.length;
    const window = 5 * 60_000;
    const start = sim.now();
    const burst = sim.burst({ publishers: 12, withinMs: window });
    expect(burst.schedule).toHaveLength(12);
    for (const s of burst.schedule) expect(s.at - start).toBeLessThanOrEqual(window);
    sim.tick(window);
    const after = sim.truth();
    const onEvent = after.items.slice(before).filter((i) => i.event_id === burst.event_id);
    // the scheduled outlets all cover it; others may pick the breaking event up on their own
    const covering = new Set(onEvent.filter((i) => i.role !== 'wire').map((i) => i.publisher_id));
    for (const s of burst.schedule) expect(covering.has(s.publisher_id), s.publisher_id).toBe(true);
    expect(onEvent.some((i) => i.role === 'wire')).toBe(true);
    expect(after.events.find((e) => e.id === burst.event_id)?.breaking).toBe(true);
    for (const s of burst.schedule) expect(sim.publishers.find((p) => p.id === s.publisher_id)?.behaviour).toBe('ok');
  });
});
