import { describe, expect, it } from 'vitest';
import { enrich } from '../../src/actors/enrich/enrich.js';
import type { ArticleInput } from '../../src/actors/enrich/text.js';
import { StoryClusterer } from '../../src/actors/stories/clusterer.js';

/**
 * The mixes a reader saw on the front page (issue "Stories that never mix events"): events of
 * several kinds in one city, and two of one kind in one city about different things. Each case
 * feeds reports of every event in turn, as they arrive, and expects one story per event.
 */

const H = 3_600_000;
const T0 = Date.UTC(2026, 2, 2, 6);
let seq = 0;

function art(title: string, summary: string, hoursAfter: number): ArticleInput {
  seq++;
  return { id: `p${seq}`, url: `https://outlet${seq}.example/n/${seq}`, title, summary, publisher: `outlet${seq % 7}`, published_at: T0 + hoursAfter * H };
}

function feed(c: StoryClusterer, a: ArticleInput): string {
  const e = enrich(a);
  return c.add(a, { entities: e.entities, places: e.places, category: e.category, region: e.region }).storyId;
}

/** Background traffic so the online IDF knows which words are common. */
function clusterer(): StoryClusterer {
  const c = new StoryClusterer();
  const bg = [
    ['Stocks edge higher as investors weigh jobs data', 'Shares rose on Monday as traders looked ahead to figures due later in the week.'],
    ['Government unveils plan to cut taxes for families', 'The finance ministry said the measures would take effect next year.'],
    ['Team wins final match of the season at home', 'The coach praised the players after a hard-fought game in front of a full stadium.'],
    ['New phone goes on sale with a bigger screen', 'The company said the device would cost less than last year\'s model.'],
    ['Police investigate fire at a warehouse downtown', 'Nobody was hurt, officials said, and the cause of the blaze is not yet known.'],
  ];
  bg.forEach(([t, s], i) => feed(c, art(t!, s!, -30 + i)));
  return c;
}

type Report = [event: string, title: string, summary: string];

describe('stories never mix events', () => {
  it.each<[string, Report[]]>([
    ['a quake, a march and an awards night in one city', [
      ['quake', 'Strong quake rattles Casablanca, 60 dead', 'A magnitude 6.4 earthquake struck near Casablanca in Morocco on Tuesday, killing at least 60 people, the civil protection chief Amina Radi said.'],
      ['march', 'Thousands march in Casablanca over fuel prices', 'Thousands of people marched through Casablanca on Tuesday to protest against rising fuel prices, organiser Karim Benali said.'],
      ['awards', 'The Silver Harbour sweeps Casablanca film awards', 'The Silver Harbour won six prizes at the annual film awards in Casablanca on Tuesday night, director Leila Mansouri said.'],
      ['quake', 'Rescuers search rubble after Casablanca earthquake', 'Rescue teams in Casablanca worked through the night to reach people trapped after the magnitude 6.4 quake.'],
      ['march', 'Police and protesters clash in Casablanca over fuel prices', 'Police in Casablanca used tear gas to disperse crowds angry about fuel prices, witnesses said.'],
      ['awards', 'Casablanca film awards: the full list of winners', 'Director Leila Mansouri took the top prize at the Casablanca film awards, where The Silver Harbour won six prizes.'],
      ['quake', 'Casablanca quake: death toll rises to 75', 'The death toll from the magnitude 6.4 earthquake near Casablanca rose to 75, civil protection chief Amina Radi said.'],
      ['march', 'Fuel price protests spread beyond Casablanca', 'Protests over fuel prices entered a second day in Casablanca, with organiser Karim Benali promising larger marches.'],
    ]],
    ['two marches in one city about different things', [
      ['fuel', 'Thousands march in Lisbon over fuel prices', 'Thousands of people marched through Lisbon on Saturday to protest against fuel prices, organiser Rui Costa said.'],
      ['fuel', 'Lisbon protests: anger over fuel prices boils over', 'Police in Lisbon used water cannon to disperse protesters angry about fuel prices, witnesses said.'],
      ['fuel', 'Day two of fuel price protests in Lisbon', 'Protests over fuel prices entered their second day in Lisbon, with organisers promising larger marches.'],
      ['fuel', 'Lisbon drivers rally against fuel prices', 'Drivers blocked roads into Lisbon to protest against fuel prices, organiser Rui Costa said.'],
      ['fuel', 'Fuel price marches grow in Lisbon', 'Crowds in Lisbon grew as protests over fuel prices continued, police said.'],
      ['rents', 'Tenants march in Lisbon over rising rents', 'Thousands of tenants marched through Lisbon on Saturday to protest against rising rents, organiser Ana Lopes said.'],
      ['rents', 'Lisbon protests: anger over rising rents boils over', 'Police in Lisbon used water cannon to disperse protesters angry about rising rents, witnesses said.'],
      ['rents', 'Rent protests spread across Lisbon', 'Protests over rising rents spread across Lisbon, with organiser Ana Lopes calling for rent controls.'],
    ]],
    ['one club: a match, a transfer and a sacking', [
      ['match', 'Porto Falcons beat Lyon Rangers 3-1', 'Marco Silva scored twice as the Porto Falcons beat the Lyon Rangers 3-1 on Saturday.'],
      ['transfer', 'Porto Falcons sign Jonas Weber for $40 million', 'The Porto Falcons have signed Jonas Weber from the Hamburg Comets for a fee of $40 million.'],
      ['sacking', 'Porto Falcons sack coach Luis Moreira', 'The Porto Falcons sacked coach Luis Moreira after a run of six defeats, the club said.'],
      ['match', 'Silva scores twice as Porto Falcons see off Lyon Rangers', 'The Porto Falcons beat the Lyon Rangers 3-1, with Marco Silva scoring twice.'],
      ['transfer', 'Jonas Weber joins Porto Falcons on four-year deal', 'Jonas Weber completed his move from the Hamburg Comets to the Porto Falcons, the club said.'],
      ['sacking', 'Moreira out as Porto Falcons coach', 'Luis Moreira was dismissed as coach of the Porto Falcons, with the side near the bottom of the table.'],
    ]],
    // one city, one formula ("... in Nairobi"): a protest and a flood are two events
    ['a protest and a flood in one city', [
      ['protest', 'Protests over pension cuts spread beyond Nairobi', 'Protests over pension cuts entered their third day in Nairobi, with organisers promising larger marches.'],
      ['flood', 'Nairobi floods leave 34 dead, thousands homeless', 'Floods in Nairobi have killed 34 people and left thousands homeless after days of heavy rain, officials said.'],
      ['protest', 'Police and protesters clash in Nairobi over pension cuts', 'Police in Nairobi used tear gas to disperse protesters angry about pension cuts, witnesses said.'],
      ['flood', 'Floods inundate Nairobi after days of rain', 'Floods in Nairobi have killed 34 people after days of heavy rain, officials said.'],
      ['protest', 'Thousands rally in Nairobi against pension cuts', 'Protests over pension cuts entered their third day in Nairobi, police said.'],
      ['flood', 'Army deployed as Nairobi floodwaters rise', 'Soldiers were sent to Nairobi as floodwaters kept rising after days of heavy rain, officials said.'],
    ]],
    ['an election and a protest in one city', [
      ['election', 'Kenya election: turnout reaches 60%', 'Millions of voters in Kenya cast ballots on Thursday in an election seen as a test for the government, officials said in Nairobi.'],
      ['protest', 'Day 4 of protests over pension cuts in Nairobi', 'Protests over pension cuts entered their fourth day in Nairobi, with organisers promising larger marches.'],
      ['election', 'Early results show tight race in Kenya', 'Millions of voters in Kenya cast ballots on Thursday in an election seen as a test for the government, officials said in Nairobi.'],
      ['protest', 'Crowds rally in Nairobi against pension cuts', 'Protests over pension cuts entered their fourth day in Nairobi, police said.'],
      ['election', 'Voters in Kenya head to the polls', 'Millions of voters in Kenya cast ballots on Thursday in an election seen as a test for the government.'],
    ]],
    // one formula for both: only the kind of happening tells them apart
    ['a ferry capsizing and a building collapse in one city, written alike', [
      ['ferry', 'Houston ferry capsizing: investigators look for cause', 'Investigators in the United States began searching for the cause of a ferry capsizing in Houston that killed 34 people.'],
      ['ferry', 'Dozens hurt in ferry capsizing in Houston', 'Investigators in the United States began searching for the cause of a ferry capsizing in Houston that killed 34 people.'],
      ['ferry', '34 dead in ferry capsizing near Houston', 'At least 34 people were killed in a ferry capsizing near Houston on Thursday, police spokesperson Mara Quell said.'],
      ['collapse', 'What we know about the building collapse in Houston', 'Investigators in the United States began searching for the cause of a building collapse in Houston that killed 19 people.'],
      ['collapse', 'Houston building collapse: police look for cause', 'Investigators in the United States began searching for the cause of a building collapse in Houston that killed 19 people.'],
      ['collapse', '19 dead in building collapse near Houston', 'At least 19 people were killed in a building collapse near Houston on Thursday, police spokesperson Anouk Halvcombe said.'],
    ]],
  ])('%s: one story per event', (_name, reports) => {
    const c = clusterer();
    const storyOf = new Map<string, Set<string>>();
    reports.forEach(([event, title, summary], i) => {
      const id = feed(c, art(title, summary, i * 0.5));
      storyOf.set(event, (storyOf.get(event) ?? new Set()).add(id));
    });
    const events = [...storyOf.keys()];
    // no story holds reports of two events
    for (let a = 0; a < events.length; a++) {
      for (let b = a + 1; b < events.length; b++) {
        const shared = [...storyOf.get(events[a]!)!].filter((s) => storyOf.get(events[b]!)!.has(s));
        expect(shared, `${events[a]} and ${events[b]}`).toEqual([]);
      }
    }
    // and the reports of an event mostly meet: its largest story holds most of them
    for (const [event, title] of reports.slice(0, 1)) expect(storyOf.get(event)!.size, title).toBeLessThanOrEqual(2);
  });
});

describe('one disaster told in different ways stays one story', () => {
  // reports of one quake quoting different officials and telling different parts of it (the
  // death toll, survivors, rescue teams) met too little to join: the demo's front page showed the
  // same quake twice, at #1 and #2
  it('a quake in one city: the death toll, then a report in other words', () => {
    const c = clusterer();
    const a = feed(c, art('Johannesburg quake: death toll jumps to 312', 'JOHANNESBURG (MPA) - At least 39 people were killed when a shallow earthquake shook Johannesburg, interior minister Joaquin Thoretti told reporters.', 0));
    feed(c, art('Rescuers search rubble after Johannesburg earthquake', 'At least 39 people were killed when a powerful earthquake shook Johannesburg, interior minister Joaquin Thoretti told reporters.', 0.1));
    const b = feed(c, art('Analysis: Powerful quake rattles Johannesburg, 39 dead', 'A magnitude 5.9 earthquake hit near Johannesburg in South Africa on Wednesday, killing at least 39 people and damaging dozens of buildings, officials said.', 0.2));
    expect(b).toBe(a);
  });

  // a day of many quakes: every report shares "magnitude", "rescue", "killed" with every quake's
  // story, and the one story of this city must still be among those the report is scored against
  it('a quake among many others elsewhere still finds its own city\'s story', () => {
    const c = clusterer();
    const cities = ['Lisbon', 'Madrid', 'Berlin', 'Paris', 'Rome', 'Athens', 'Warsaw', 'Vienna', 'Prague', 'Dublin', 'Oslo', 'Helsinki', 'Stockholm', 'Munich', 'Milan', 'Lyon', 'Hamburg', 'Zurich', 'Geneva', 'Brussels', 'Amsterdam', 'Copenhagen', 'Budapest', 'Sofia', 'Bucharest', 'Belgrade'];
    cities.forEach((city, i) => {
      feed(c, art(`Magnitude 6.1 quake near ${city} damages dozens of buildings`, `The magnitude 6.1 earthquake near ${city} damaged dozens of buildings and killed at least ${10 + i} people, rescue officials and seismologists said.`, i * 0.05));
    });
    const a = feed(c, art('"The walls just folded": survivors describe Chennai earthquake', 'Rescue teams in Chennai worked through the night to reach residents trapped by a magnitude 5.5 quake.', 1.5));
    const b = feed(c, art('How prepared was Chennai for a big earthquake?', 'The magnitude 5.5 earthquake near Chennai damaged dozens of buildings and killed at least 42 people, rescue officials and seismologists said.', 1.6));
    expect(b).toBe(a);
  });

  it('a quake in another city stays apart', () => {
    const c = clusterer();
    const a = feed(c, art('Johannesburg quake: death toll jumps to 312', 'JOHANNESBURG (MPA) - At least 39 people were killed when a shallow earthquake shook Johannesburg, interior minister Joaquin Thoretti told reporters.', 0));
    const b = feed(c, art('Analysis: Powerful quake rattles Cape Town, 39 dead', 'A magnitude 5.9 earthquake hit near Cape Town in South Africa on Wednesday, killing at least 39 people and damaging dozens of buildings, officials said.', 0.2));
    expect(b).not.toBe(a);
  });
});

/**
 * Headline-only items (a news sitemap's entries: no snippet) meeting stories the feeds tell with
 * snippets. Sharing only a city or country, or a team's nickname, is not enough: what happened
 * and who it is about must agree. The same event's bare headlines still join.
 */
describe('a bare headline joins a story only when what happened agrees', () => {
  type Item = [event: string, title: string, summary: string];
  const cases: [string, Item[], [title: string, event: string][]][] = [
    ['a quake headline and a flood story in one city', [
      ['flood', 'Istanbul floods: locals wade through streets', 'Residents of Istanbul waded through flooded streets on Monday after two days of torrential rain, the city governor Selim Aras said.'],
      ['flood', 'Istanbul flood victims count the cost', 'Shopkeepers in Istanbul counted the cost of the torrential rain that flooded streets, governor Selim Aras said.'],
    ], [['Magnitude 7.3 quake strikes near Istanbul', 'quake'], ['Istanbul floods: residents wade through streets', 'flood']]],
    ['a wildfire headline and a flood story in one city', [
      ['flood', 'Sydney floods leave 42 dead, thousands homeless', 'Floods in Sydney have killed 42 people and left thousands homeless after days of torrential rain, emergency chief Claire Dunmore said.'],
      ['flood', 'Army deployed as Sydney floodwaters rise', 'Soldiers were sent to Sydney as floodwaters kept rising after days of torrential rain, emergency chief Claire Dunmore said.'],
    ], [['Wildfire forces thousands to flee near Sydney', 'fire'], ['Floods in Sydney: thousands homeless after days of torrential rain', 'flood']]],
    ['another match of the same kind', [
      ['bogota', 'Bogota Rangers beat Berlin Rangers 3-2', 'Tomas Grimellano scored twice as the Bogota Rangers beat the Berlin Rangers 3-2 on Saturday.'],
      ['bogota', 'Grimellano scores twice as Bogota Rangers win', 'The Bogota Rangers beat the Berlin Rangers 3-2, with Tomas Grimellano scoring twice.'],
    ], [['Chennai Comets beat Delhi Rangers 1-0', 'chennai'], ['Bogota Rangers clinch title with win over Berlin Rangers', 'bogota']]],
    // a surname alone is a namesake's as much as the same person's: what happened must agree
    ['a namesake sharing only a surname', [
      ['election', 'Saudi Arabia votes: who is Umar Pemwick?', 'Voters in Saudi Arabia go to the polls on Sunday, and Umar Pemwick, the opposition candidate, is tipped to win, pollsters said.'],
      ['election', 'Pemwick claims victory in Saudi Arabia election', 'Umar Pemwick claimed victory in the Saudi Arabia election on Monday after early results put him well ahead, the electoral commission said.'],
    ], [['Minister Pemwick hails passage of housing bill | The Chicago Statehouse', 'bill'], ['Pemwick claims victory in Saudi Arabia election', 'election']]],
    // a possessive names whose bill it is, though no role word marks the name as a person's
    ['another person\'s bill, named only by a possessive', [
      ['farrow', 'Lawmakers pass Farrow\'s housing bill', 'Parliament passed the housing bill on Tuesday after an all-night session, minister Dana Farrow said.'],
      ['farrow', 'Minister Farrow hails passage of housing bill', 'Minister Dana Farrow said the housing bill passed on Tuesday would build 40,000 homes.'],
    ], [['Lawmakers pass Undton\'s housing bill', 'undton'], ['Lawmakers pass Farrow\'s housing bill', 'farrow']]],
  ];
  it.each(cases)('%s', (_name, told, bare) => {
    const c = clusterer();
    const storyOfEvent = new Map<string, string>();
    told.forEach(([event, title, summary], i) => storyOfEvent.set(event, feed(c, art(title, summary, i * 0.5))));
    bare.forEach(([title, event], i) => {
      const id = feed(c, art(title, '', 2 + i * 0.5));
      if (storyOfEvent.has(event)) expect(id, title).toBe(storyOfEvent.get(event));
      else expect([...storyOfEvent.values()], title).not.toContain(id);
    });
  });

  // two bare headlines, one after the other: whether the second joins the first's story. A
  // possessive names whose bill it is; a country only implied by a city is no common ground (a
  // storm in Houston and a ferry capsizing in Atlanta are two stories, seen on the demo)
  const FARROW = 'Lawmakers pass Farrow\'s housing bill';
  const ATLANTA = 'What we know about the ferry capsizing in Atlanta';
  it.each<[string, string, string, boolean]>([
    ['another name in the same place', FARROW, 'Lawmakers pass Undton\'s housing bill', false],
    ['another name, with a kicker', FARROW, 'Analysis: Lawmakers pass Raston\'s housing bill', false],
    ['the same name', FARROW, 'Lawmakers pass Farrow\'s housing bill | The Lagos Ledger', true],
    ['two cities of one country', ATLANTA, 'Storm live: Houston braces for second night of gales', false],
    ['talks in another city of that country', ATLANTA, 'Seattle talks: what was agreed', false],
    ['the same event in other words', ATLANTA, 'Atlanta ferry capsizing: police look for cause', true],
  ])('two bare headlines, %s', (_name, first, second, joins) => {
    const c = clusterer();
    const a = feed(c, art(first, '', 0));
    const b = feed(c, art(second, '', 0.5));
    if (joins) expect(b, second).toBe(a);
    else expect(b, second).not.toBe(a);
  });

  it('a story of bare headlines only keeps the headline profile (paraphrases with few words in common join)', () => {
    const c = clusterer();
    const a = feed(c, art('Apple unveils the Orchard 9 phone at a Cupertino event', '', 0));
    const b = feed(c, art('Orchard 9: Apple shows its new phone', '', 0.5));
    expect(b).toBe(a);
  });
});

/**
 * Headlines written alike about another who or where (issue 14: a "Tickets for Ibarorsen tour
 * resell ..." story held "Whitetti" tour headlines). The same words with other names, neither
 * text mentioning the other's, are another event; a name in common, or the same event told in
 * other words, still joins.
 */
describe('the same words about another who or where are another event', () => {
  type Item = [event: string, title: string, summary: string];
  const cases: [string, Item[]][] = [
    ['two tours whose headlines differ by one made-up name, with snippets', [
      ['ibarorsen', 'Tickets for Ibarorsen tour resell for $3 billion', 'Tickets for Ibarorsen\'s tour sold out within minutes, promoter Velmark Live said, as fans in the United States queued online.'],
      ['ibarorsen', 'Ibarorsen adds Chicago dates to tour', 'Singer Ibarorsen announced a world tour of 40 dates on Monday, ending with two shows in Chicago.'],
      ['whitetti', 'Tickets for Whitetti tour resell for $67 million', 'Tickets for Whitetti\'s tour sold out within minutes, promoter Orbline Events said, as fans in the United States queued online.'],
      ['ibarorsen', 'Ibarorsen tour sells out in minutes', 'Tickets for Ibarorsen\'s tour sold out within minutes, promoter Velmark Live said.'],
      ['whitetti', 'Whitetti tour sells out in minutes', 'Tickets for Whitetti\'s tour sold out within minutes, promoter Orbline Events said.'],
    ]],
    ['two tours of real singers, written alike', [
      ['swift', 'Taylor Swift tour tickets resell for thousands', 'Tickets for Taylor Swift\'s stadium tour are reselling for thousands of dollars after selling out within minutes, fans said.'],
      ['beyonce', 'Beyonce tour tickets resell for thousands', 'Tickets for Beyonce\'s stadium tour are reselling for thousands of dollars after selling out within minutes, fans said.'],
      ['swift', 'Swift adds London dates to sold-out tour', 'Taylor Swift added three London dates to her stadium tour after tickets sold out within minutes.'],
      ['beyonce', 'Beyonce adds Paris dates as tour sells out', 'Beyonce added two Paris dates to her stadium tour after tickets sold out within minutes.'],
    ]],
    ['two elections told alike, told apart by who won', [
      ['thoraldo', 'Thoraldo claims victory in the United States election', 'Opposition leader Ines Thoraldo claimed victory in the United States\' general election on Sunday as early results gave the Rosswick Coalition a lead.'],
      ['eberton', 'Eberton claims victory in the United States election', 'Prime minister Amal Eberton claimed victory in the United States\' general election on Sunday as early results gave the Nimstone Party a clear lead.'],
      ['thoraldo', 'Rosswick Coalition wins most seats in the United States vote', 'Opposition leader Ines Thoraldo claimed victory as the Rosswick Coalition won most seats, early results showed.'],
      ['eberton', 'Nimstone Party wins most seats in the United States vote', 'Prime minister Amal Eberton claimed victory as the Nimstone Party won most seats, early results showed.'],
    ]],
    ['three elections told alike, told apart by where', [
      ['chicago', 'Early results show tight race in Chicago mayoral vote', 'Early results in Chicago\'s mayoral election showed Mayor Dana Pemnick narrowly ahead of her challenger, the election board said.'],
      ['atlanta', 'Early results show tight race in Atlanta mayoral vote', 'Early results in Atlanta\'s mayoral election showed former mayor Esther Aberhardt narrowly ahead of her challenger, the election board said.'],
      ['houston', 'Early results show tight race in Houston mayoral vote', 'Early results in Houston\'s mayoral election showed Mayor Jesston narrowly ahead of his challenger, the election board said.'],
      ['chicago', 'Pemnick claims victory in Chicago mayoral election', 'Mayor Dana Pemnick claimed victory in Chicago\'s mayoral election on Tuesday night, the election board said.'],
      ['atlanta', 'Aberhardt claims victory in Atlanta mayoral election', 'Former mayor Esther Aberhardt claimed victory in Atlanta\'s mayoral election on Tuesday night, the election board said.'],
    ]],
  ];
  it.each(cases)('%s: one story per event', (_name, reports) => {
    const c = clusterer();
    const storyOf = new Map<string, Set<string>>();
    reports.forEach(([event, title, summary], i) => {
      const id = feed(c, art(title, summary, i * 0.5));
      storyOf.set(event, (storyOf.get(event) ?? new Set()).add(id));
    });
    const events = [...storyOf.keys()];
    for (let a = 0; a < events.length; a++) {
      for (let b = a + 1; b < events.length; b++) {
        const shared = [...storyOf.get(events[a]!)!].filter((s) => storyOf.get(events[b]!)!.has(s));
        expect(shared, `${events[a]} and ${events[b]}`).toEqual([]);
      }
    }
    // each event's reports meet: one story per event
    for (const [event, ids] of storyOf) expect(ids.size, event).toBe(1);
  });

  // news sitemaps: headlines without snippets, against a story the feeds tell and against one of
  // headlines only
  it.each<[string, Item[], [title: string, event: string][]]>([
    ['a bare headline of another tour against a story told with snippets', [
      ['ibarorsen', 'Tickets for Ibarorsen tour resell for $3 billion', 'Tickets for Ibarorsen\'s tour sold out within minutes, promoter Velmark Live said, as fans in the United States queued online.'],
      ['ibarorsen', 'Ibarorsen adds Chicago dates to tour', 'Singer Ibarorsen announced a world tour of 40 dates on Monday, ending with two shows in Chicago.'],
    ], [['Brenton tour sells out in minutes', 'brenton'], ['Tickets for Whitetti tour resell for $67 million', 'whitetti'], ['Ibarorsen tour sells out in minutes', 'ibarorsen']]],
    ['summits told alike in other cities, headlines only', [
      ['delhi', 'Delhi summit ends with pledge on trade corridors', ''],
      ['delhi', 'Delhi summit: leaders pledge new trade corridors', ''],
    ], [['Milan summit ends with pledge on trade corridors', 'milan'], ['Valencia summit ends with pledge on trade corridors', 'valencia'], ['Delhi summit ends with pledge on trade corridors | The Lagos Ledger', 'delhi']]],
    ['another company\'s fine, headlines only', [
      ['halmora', 'Regulators fine Halmora Networks $41 million over app store rules', ''],
    ], [['Regulators fine Hallon Networks $21 billion over app store rules', 'hallon'], ['Halmora Networks to appeal $41 million app store fine', 'halmora']]],
  ])('%s', (_name, told, bare) => {
    const c = clusterer();
    const storyOfEvent = new Map<string, string>();
    told.forEach(([event, title, summary], i) => storyOfEvent.set(event, feed(c, art(title, summary, i * 0.5))));
    bare.forEach(([title, event], i) => {
      const id = feed(c, art(title, '', 2 + i * 0.5));
      if (storyOfEvent.has(event)) expect(id, title).toBe(storyOfEvent.get(event));
      else {
        expect([...storyOfEvent.values()], title).not.toContain(id);
        storyOfEvent.set(event, id);
      }
    });
  });
});
