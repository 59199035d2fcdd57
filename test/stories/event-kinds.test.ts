import { describe, expect, it } from 'vitest';
import { kindOf, kindsAgree, sameDisaster } from '../../src/actors/stories/event-kinds.js';
import { tokenize } from '../../src/actors/enrich/text.js';

const kinds = (text: string): number => tokenize(text).reduce((m, t) => m | kindOf(t), 0);

describe('kinds of happening', () => {
  it.each<[string, string, boolean]>([
    ['a ferry capsizing in Houston', 'a building collapse in Houston', false],
    ['bus crash kills 12', 'train derailment kills 12', false],
    ['magnitude 6 earthquake', 'floods after days of rain', true], // a quake brings floods
    ['strong quake rattles Lima', 'buildings collapsed across Lima', true],
    ['wildfire nears Madrid', 'blaze forces thousands to flee', true],
    ['storm capsizes ferry', 'ferry sank in the storm', true],
    ['explosion at chemical plant', 'earthquake strikes', false],
    ['ministers agree budget', 'a building collapse', true], // one names no kind: no disagreement
    ['protests over pension cuts spread', 'floods leave 34 dead', false],
    ['voters head to the polls', 'thousands rally against fuel prices', false],
    ['protesters reject the election result', 'voters head to the polls', true], // names both
    ['dock workers strike over pay', 'protesters march on parliament', true], // a strike brings marches
    ['outbreak of cholera reported', 'storm batters the coast', false],
    ['film awards: the full list of winners', 'ferry capsizing kills 12', false],
    ['summit ends with pledge on trade corridors', 'thousands rally against water shortages', false], // seen on the demo: one story
    ['protesters rally outside the summit', 'summit ends with pledge on trade corridors', true],
    ['film premieres in Lyon ahead of release', 'police and protesters clash in Lyon', false],
    ['', '', true],
  ])('%s / %s agree: %s', (a, b, agree) => {
    expect(kindsAgree(kinds(a), kinds(b))).toBe(agree);
    expect(kindsAgree(kinds(b), kinds(a))).toBe(agree);
  });
});

describe('the same disaster', () => {
  it.each<[string, string, boolean]>([
    ['survivors describe the earthquake', 'quake death toll climbs', true],
    ['storm batters the coast', 'floods after the storm', true],
    ['storm batters the coast', 'floods swamp the city', false], // kinds that go together, not one kind
    ['thousands march against fuel prices', 'police and protesters clash', false], // not a disaster
    ['quake strikes', 'ministers agree budget', false],
  ])('%s / %s: %s', (a, b, same) => {
    expect(sameDisaster(kinds(a), kinds(b))).toBe(same);
  });
});
