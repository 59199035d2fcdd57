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

  it('lets the feed tag decide over the model', () => {
    const r = classifyTopic({ tokens: tokenize('Shares fell after profit missed forecasts'), text: '', feedCategory: 'Sports' }, model);
    expect(r).toMatchObject({ category: 'sports', via: 'tag' });
  });

  it('uses a section folder when the model is not sure', () => {
    const r = classifyTopic({ tokens: tokenize('What happened on Tuesday'), text: 'What happened on Tuesday', url: 'https://example.com/health/what-happened' }, model);
    expect(r.category).toBe('health');
  });
});
