import { describe, expect, it } from 'vitest';
import { detectLanguage, normalizeLanguageTag } from '../../src/actors/enrich/language.js';
import { tokenize } from '../../src/actors/enrich/text.js';

const detect = (text: string, declared: string | null = null, publisher: string | null = null) => detectLanguage(text, declared, tokenize(text), publisher);

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
    // short headlines: trigram detectors call these French, Portuguese or German
    'Apple unveils new iPhone',
    'Lima gem ends LA drought',
    'Sudanese rebels, AU meet',
    'No. 5 North Carolina 63, No. 24 Villanova 56',
    'Zimbabwe do England a favour',
    'Yahoo Acquires Another E-Mail Startup',
    'Secretary Rumsfeld Remarks En Route to El Salvador',
    'PalmSource Promises Linux OS',
    'O\'s Still Fishing',
    'BANQUE NATIONALE DE PARIS SETS RIGHTS ISSUE',
    'Beyonc\u00e9 and Jay Z announce a stadium tour with dates in Paris and S\u00e3o Paulo',
  ])('a short English headline without a prior stays English: %s', (text) => {
    expect(detect(text).language).toBe('en');
  });

  it.each([
    ['a name-only headline keeps the feed\'s language', 'Macron Merkel Brussels summit', 'fr', null, 'fr', 'declared'],
    ['the publisher\'s language stands in when the feed declares none', 'Fujitsu schlie\u00dft Werk in Augsburg', null, 'de', 'de', 'publisher'],
    ['feed and publisher disagree: the words side with one', 'Le gouvernement a pr\u00e9sent\u00e9 le projet de loi pour la r\u00e9forme', 'en', 'fr', 'fr', 'publisher'],
    ['a Latin headline cannot be in the Kannada a feed declares', 'Karnataka Bank bags banking excellence award', 'kn', null, 'en', 'default'],
    ['a Cyrillic headline with Ukrainian letters', '\u0423 \u041a\u0438\u0454\u0432\u0456 \u0432\u0456\u0434\u043a\u0440\u0438\u043b\u0438 \u043d\u043e\u0432\u0438\u0439 \u043c\u0456\u0441\u0442', null, null, 'uk', 'script'],
    ['a Cyrillic headline with Russian letters', '\u0412 \u041c\u043e\u0441\u043a\u0432\u0435 \u043e\u0442\u043a\u0440\u044b\u043b\u0438 \u043d\u043e\u0432\u044b\u0439 \u043c\u043e\u0441\u0442', null, null, 'ru', 'script'],
    ['neutral Cyrillic keeps a Cyrillic prior', '\u041f\u0440\u0435\u0437\u0438\u0434\u0435\u043d\u0442 \u043f\u0440\u043e\u0432\u0435\u043b \u0432\u0441\u0442\u0440\u0435\u0447\u0443', 'uk', null, 'uk', 'declared'],
    ['Urdu letters', '\u067e\u0627\u06a9\u0633\u062a\u0627\u0646 \u06a9\u06d2 \u0644\u06cc\u06d2 \u0627\u0645\u062f\u0627\u062f', null, null, 'ur', 'script'],
    ['Kannada script', '\u0cac\u0cc6\u0c82\u0c97\u0cb3\u0cc2\u0cb0\u0cc1 \u0cb8\u0cc1\u0ca6\u0ccd\u0ca6\u0cbf', null, null, 'kn', 'script'],
    ['German words overrule an English default', 'Die Regierung will mit dem neuen Gesetz die Mieten begrenzen', null, null, 'de', 'words'],
  ])('%s', (_name, text, declared, publisher, language, via) => {
    expect(detect(text, declared, publisher)).toEqual({ language, via });
  });

  it.each([
    ['en-US', 'en'], ['EN_gb', 'en'], ['fra', 'fr'], ['english', 'en'], ['', null], [null, null],
  ])('normalises tag %s -> %s', (tag, expected) => {
    expect(normalizeLanguageTag(tag)).toBe(expected);
  });
});
