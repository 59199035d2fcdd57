import { describe, expect, it } from 'vitest';
import { detectLanguage, normalizeLanguageTag } from '../../src/actors/enrich/language.js';
import { tokenize } from '../../src/actors/enrich/text.js';

const detect = (text: string, declared: string | null = null) => detectLanguage(text, declared, tokenize(text));

describe('language detection', () => {
  it.each([
    ['The council approved the budget for the new bridge after a long debate', null, 'en'],
    ['Le gouvernement a présenté mardi un projet de loi sur la réforme des retraites', null, 'fr'],
    ['Die Regierung hat am Dienstag einen neuen Gesetzentwurf für die Rente vorgestellt', null, 'de'],
    ['El gobierno presentó el martes un proyecto de ley para la reforma de las pensiones', null, 'es'],
    ['Il governo ha presentato martedì un disegno di legge per la riforma delle pensioni', null, 'it'],
    ['O governo apresentou na terça-feira um projeto de lei para a reforma das pensões', null, 'pt'],
    ['Правительство во вторник представило законопроект о пенсионной реформе', null, 'ru'],
    ['政府は火曜日に年金改革の法案を提出した', null, 'ja'],
    ['정부는 화요일 연금 개혁 법안을 발표했다', null, 'ko'],
    ['Ο πρωθυπουργός ανακοίνωσε νέα μέτρα για την οικονομία', null, 'el'],
  ])('%s -> %s', (text, declared, expected) => {
    expect(detect(text, declared).language).toBe(expected);
  });

  it('keeps the declared language when the words do not contradict it', () => {
    // a bare name-heavy headline carries no function words: the feed's word stands
    expect(detect('Macron Merkel Brussels summit', 'fr-FR')).toEqual({ language: 'fr', via: 'declared' });
  });

  it('overrules a wrong declaration when the text clearly says otherwise', () => {
    const r = detect('The minister said that the plan will be published in the spring and that it has support', 'de');
    expect(r.language).toBe('en');
  });

  it.each([
    ['en-US', 'en'], ['EN_gb', 'en'], ['fra', 'fr'], ['english', 'en'], ['', null], [null, null],
  ])('normalises tag %s -> %s', (tag, expected) => {
    expect(normalizeLanguageTag(tag)).toBe(expected);
  });
});
