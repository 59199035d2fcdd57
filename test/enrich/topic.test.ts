import { describe, expect, it } from 'vitest';
import { enrich } from '../../src/actors/enrich/enrich.js';
import { tokenize } from '../../src/actors/enrich/text.js';
import { categoryFromRules, categoryFromTag, categoryFromUrl, classifyTopic } from '../../src/actors/enrich/topic.js';
import { loadTopicModel } from '../../src/actors/enrich/topic-model.js';

describe('feed category tags', () => {
  it.each([
    ['Sports', 'sports'], ['Football', 'sports'], ['NFL', 'sports'], ['Business & Finance', 'business'],
    ['Markets', 'business'], ['Tech', 'technology'], ['Science', 'science'], ['Health', 'health'],
    ['World News', 'world'], ['Politics', 'politics'], ['Movies', 'entertainment'], ['Celebrity', 'entertainment'],
    ['Opinion', null], ['', null], [null, null],
  ])('%s -> %s', (tag, expected) => {
    expect(categoryFromTag(tag)).toBe(expected);
  });
});

describe('URL sections', () => {
  it.each([
    ['https://example.com/sport/football/2024/05/01/match-report', 'sports'],
    ['https://example.com/business/markets/stocks-rally', 'business'],
    ['https://news.example.org/health/flu-season-starts', 'health'],
    ['https://example.com/2024/05/01/sports-bar-opens', null],
    ['https://example.com/technology', null],
    ['not a url', null],
  ])('%s -> %s', (url, expected) => {
    expect(categoryFromUrl(url)).toBe(expected);
  });
});

describe('keyword rules', () => {
  it.each([
    ['nasa telescope spots a distant comet', 'science'],
    ['measles outbreak sends dozens to hospitals', 'health'],
    ['parliament votes on election reform', 'politics'],
    ['coach praises team after cup final', 'sports'],
    ['shares slide as earnings miss forecasts', 'business'],
    ['new smartphone apps for android', 'technology'],
    ['actress wins award for new film', 'entertainment'],
    ['a quiet afternoon in the garden', null],
  ])('%s -> %s', (text, expected) => {
    expect(categoryFromRules(text)).toBe(expected);
  });
});

describe('topic classification', () => {
  const model = loadTopicModel();

  it('loads a compact model with the taxonomy classes', () => {
    expect(model.buckets).toBeGreaterThan(1000);
    expect(model.classes).toContain('sports');
    expect(model.weights.length).toBe(model.buckets * model.classes.length);
  });

  it.each([
    ['Striker scores twice as United win the league title on the final day of the season', 'sports'],
    ['Shares of the bank fell after quarterly profit missed analyst forecasts and revenue slipped', 'business'],
    ['The new smartphone runs a faster chip and the software update adds encryption for apps', 'technology'],
    ['The singer announced a world tour and a new album after the film premiere in Hollywood', 'entertainment'],
  ])('model: %s -> %s', (title, expected) => {
    expect(enrich({ id: '1', url: '', title, publisher: 'p', published_at: 0 }).category).toBe(expected);
  });

  it("lets the entry's own category tag decide over the model", () => {
    const r = classifyTopic({ tokens: tokenize('Shares fell after profit missed forecasts'), text: '', categories: ['Breaking', 'Sport'] }, model);
    expect(r).toMatchObject({ category: 'sports', via: 'tag' });
  });

  it.each([
    // an unsure model follows the publisher's category
    ['City council weighs stadium funding', 'Business', 'business'],
    ['Report raises questions about the program', 'Technology', 'technology'],
    ['Patients and players react to the new rules', 'Health', 'health'],
    // a confident model keeps its own reading: a science publisher also files floods and elections
    ['Striker scores twice as United win the league title on the final day of the season', 'Science', 'sports'],
    ['Shares of the bank fell after quarterly profit missed analyst forecasts and revenue slipped', 'Entertainment', 'business'],
  ])("the publisher's category is a prior, not a verdict: %s (%s)", (title, feedCategory, expected) => {
    const tokens = tokenize(title);
    expect(classifyTopic({ tokens, text: title, feedCategory, titleTokens: tokens.length }, model).category).toBe(expected);
  });

  it('reports a secondary category only when the runner-up is likely, never the primary', () => {
    for (const title of ['Club shares jump as the football team is sold to investors', 'Striker scores twice as United win the league title', 'What happened on Tuesday']) {
      const tokens = tokenize(title);
      const r = classifyTopic({ tokens, text: title, titleTokens: tokens.length }, model);
      expect(r.secondary).not.toBe(r.category);
      if (r.secondary !== null) expect(model.classes).toContain(r.secondary);
    }
    // a headline about both (the committed model gives it about even odds business:sports)
    const tokens = tokenize('Football club shares jump as the team is sold to a new owner and wins');
    const both = classifyTopic({ tokens, text: '', titleTokens: tokens.length }, model);
    expect([both.category, both.secondary].sort()).toEqual(['business', 'sports']);
  });

  it('uses a section folder when the model is not sure', () => {
    const r = classifyTopic({ tokens: tokenize('What happened on Tuesday'), text: 'What happened on Tuesday', url: 'https://example.com/health/what-happened' }, model);
    expect(r.category).toBe('health');
  });
});
