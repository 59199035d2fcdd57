import type { Section } from './lexicon.js';

/**
 * Event kinds and the sentences news about them is written from. Slots in braces are filled per
 * event (see events.ts): {person} {person2} {last} {last2} {role} {org} {org2} {city} {country}
 * {n} {n2} {pct} {money} {team} {team2} {score} {work} {product} {condition} {mag}.
 * Kinds marked `twin` recur in different places at once (two earthquakes, two strikes): their
 * stories share many words but are different events, which is what over-merging tests need.
 */
export interface EventKind {
  readonly kind: string;
  readonly category: Section;
  readonly twin: boolean;
  readonly roles: readonly string[];
  readonly headlines: readonly string[];
  readonly leads: readonly string[];
  readonly body: readonly string[];
}

export const EVENT_KINDS: readonly EventKind[] = [
  {
    kind: 'earthquake', category: 'world', twin: true, roles: ['civil protection chief', 'regional governor'],
    headlines: ['Magnitude {mag} earthquake strikes near {city}', 'Strong quake rattles {city}, {n} dead',
      'Earthquake near {city} kills at least {n}', 'Rescuers search rubble after {city} earthquake',
      '{city} quake: death toll rises to {n2}', 'Aftershocks hit {city} as quake survivors sleep outside'],
    leads: ['A magnitude {mag} earthquake struck near {city} in {country} on Tuesday, killing at least {n} people and damaging hundreds of buildings, officials said.',
      'At least {n} people were killed when a strong earthquake shook {city}, {role} {person} told reporters.',
      'Rescue teams in {city} worked through the night to reach people trapped after a magnitude {mag} quake.'],
    body: ['{role} {person} said the toll was likely to rise as teams reached outlying villages.',
      'The {org} said it had sent tents, water and medical supplies to the area.',
      'The quake was felt across much of {country}, and several aftershocks followed.',
      'Schools in {city} will stay closed while engineers inspect damaged buildings.',
      'Residents described furniture sliding across rooms and walls cracking.',
      'Seismologists said the epicentre was about {n2} kilometres from the city centre.'],
  },
  {
    kind: 'wildfire', category: 'world', twin: true, roles: ['fire chief', 'state governor'],
    headlines: ['Wildfire forces thousands to flee near {city}', 'Crews battle wildfire outside {city}',
      '{city} wildfire grows to {n2} hectares', 'Evacuations ordered as fire nears {city}',
      'Winds fan wildfire threatening {city} suburbs'],
    leads: ['A fast-moving wildfire near {city} forced about {n2} people from their homes on Sunday, {role} {person} said.',
      'Firefighters in {country} struggled to contain a wildfire that has burned {n2} hectares near {city}.',
      'Strong winds pushed a wildfire toward the outskirts of {city}, prompting new evacuation orders.'],
    body: ['{role} {person} said at least {n} homes had been destroyed.', 'Smoke closed two highways and disrupted flights.',
      'The {org} opened shelters in schools and sports halls.', 'Forecasters expect the hot, dry weather to last several days.',
      'No deaths have been reported, officials said.'],
  },
  {
    kind: 'summit', category: 'world', twin: false, roles: ['foreign minister', 'president'],
    headlines: ['Leaders meet in {city} for talks on regional security', '{last} and {last2} agree ceasefire framework in {city}',
      '{city} summit ends with pledge on trade corridors', 'Border dispute overshadows {city} talks'],
    leads: ['{role} {person} and counterpart {person2} met in {city} on Thursday for talks on security and trade.',
      'Delegations from {n} countries gathered in {city} for a summit hosted by {country}.'],
    body: ['{person} said the talks had been frank and constructive.', 'Protesters gathered outside the venue.',
      'A joint statement is expected on Friday.', 'Analysts said expectations of a breakthrough were low.',
      'The {org} welcomed the meeting.'],
  },
  {
    kind: 'election', category: 'politics', twin: true, roles: ['opposition leader', 'prime minister'],
    headlines: ['{last} claims victory in {country} election', 'Voters in {country} head to the polls',
      '{org} wins most seats in {country} vote', 'Early results show tight race in {country}',
      '{country} election: turnout reaches {pct}%'],
    leads: ['{role} {person} claimed victory in {country}\'s general election on Sunday as early results gave the {org} a lead.',
      'Millions of voters in {country} cast ballots on Sunday in an election seen as a test for {role} {person}.'],
    body: ['Turnout was about {pct} percent, the election commission said.', '{person2} conceded defeat late on Sunday.',
      'The {org} campaigned on lowering living costs.', 'Observers reported few irregularities.',
      'Coalition talks could take several weeks.'],
  },
  {
    kind: 'bill', category: 'politics', twin: false, roles: ['senator', 'minister'],
    headlines: ['Lawmakers pass {last}\'s housing bill', '{country} parliament approves {money} housing plan',
      'Housing bill clears vote after all-night session', '{role} {last} hails passage of housing bill'],
    leads: ['Lawmakers in {country} approved a bill backed by {role} {person} that would fund {n2} new homes.',
      'After an all-night session, {country}\'s parliament passed a housing plan worth {money}, {role} {person} said.'],
    body: ['The vote was {n} to {n2}.', 'Critics said the measure did not go far enough.', 'The {org} said it would challenge the law in court.',
      '{person2} called the outcome a victory for families.'],
  },
  {
    kind: 'earnings', category: 'business', twin: false, roles: ['chief executive', 'chief financial officer'],
    headlines: ['{org} profit rises {pct}% on strong demand', '{org} shares fall after weak outlook',
      '{org} beats forecasts, lifts full-year guidance', '{org} to cut {n2} jobs as sales slow'],
    leads: ['{org} reported a {pct} percent rise in quarterly profit on Tuesday, helped by demand in {country}.',
      'Shares in {org} fell sharply after the company warned that sales would slow, {role} {person} said.'],
    body: ['Revenue reached {money}, above analyst estimates.', '{role} {person} said costs would stay under control.',
      'The company plans to open new sites near {city}.', 'Analysts at {org2} raised their price target.',
      'The shares have gained {pct} percent this year.'],
  },
  {
    kind: 'merger', category: 'business', twin: true, roles: ['chief executive', 'chair'],
    headlines: ['{org} agrees to buy {org2} for {money}', '{org} and {org2} in merger talks',
      'Regulators probe {org} deal for {org2}', '{org2} board backs {org} takeover'],
    leads: ['{org} agreed to acquire {org2} for {money}, the companies said on Monday, creating a leader in its market.',
      '{org} is in advanced talks to buy rival {org2}, {role} {person} confirmed.'],
    body: ['The deal is expected to close next year.', 'Shareholders of {org2} will receive a premium of {pct} percent.',
      'Competition regulators in {country} are expected to review the deal.', '{person} called the deal transformative.'],
  },
  {
    kind: 'rates', category: 'business', twin: false, roles: ['central bank governor', 'economist'],
    headlines: ['{country} central bank holds rates at {pct}%', 'Central bank in {country} keeps rates on hold, signals cuts',
      '{last} says {country} rates to stay at {pct}% for now', 'Markets rally as {country} central bank holds rates'],
    leads: ['The central bank of {country} kept interest rates unchanged at {pct} percent on Thursday, governor {person} said.',
      'Governor {person} said the {country} central bank would hold rates at {pct} percent and could cut later this year.'],
    body: ['Economists had expected the decision.', '{person2}, an economist at {org}, said further cuts were possible.',
      'The currency rose after the announcement.', 'Food and energy prices remained high.'],
  },
  {
    kind: 'launch', category: 'technology', twin: false, roles: ['chief executive', 'product chief'],
    headlines: ['{org} unveils {product}', '{org} launches {product} to take on rivals', 'First look: {org}\'s new {product}',
      '{org} {product} goes on sale next month'],
    leads: ['{org} unveiled its new {product} on Wednesday at an event in {city}, {role} {person} said.',
      '{org} said its {product} would go on sale next month at a starting price of {money}.'],
    body: ['The device uses a chip designed in-house.', '{person} said battery life had doubled.',
      'Analysts at {org2} expect strong holiday sales.', 'The company did not say how many units it would make.'],
  },
  {
    kind: 'breach', category: 'technology', twin: true, roles: ['security chief', 'spokesperson'],
    headlines: ['{org} says hackers stole customer data', 'Data breach at {org} hits {n2} accounts',
      '{org} outage disrupts services across {country}', 'Ransomware attack shuts {org} systems'],
    leads: ['{org} said on Friday that hackers had accessed personal data of about {n2} customers.',
      'A cyberattack disrupted systems at {org} for several hours, {role} {person} said.'],
    body: ['The company has informed regulators in {country}.', 'Passwords were not affected, {person} said.',
      'Security researchers at {org2} said the attack used a known flaw.', 'Customers were urged to watch for phishing emails.'],
  },
  {
    kind: 'discovery', category: 'science', twin: false, roles: ['lead researcher', 'astronomer'],
    headlines: ['Scientists at {org} find new exoplanet', '{org} astronomers spot planet {n2} light years away',
      'Potentially habitable planet found by {org} team', '{last}\'s team discovers rocky exoplanet'],
    leads: ['Researchers at the {org} said on Monday they had found evidence of a planet about {n2} light years away.',
      'A team led by {person} at the {org} described the discovery in a journal paper.'],
    body: ['{role} {person} said more observations are needed.', 'The work took {n} years.',
      'Scientists at {org2} called the finding remarkable.', 'The data will be made public.'],
  },
  {
    kind: 'outbreak', category: 'health', twin: true, roles: ['health minister', 'epidemiologist'],
    headlines: ['Outbreak of {condition} reported in {city}', '{city} {condition} cases rise to {n2}',
      'Health officials in {country} urge vaccination amid {condition} outbreak', 'Hospitals in {city} strained by {condition}'],
    leads: ['Health authorities in {city} reported {n2} cases of {condition} this week, {role} {person} said.',
      'An outbreak of {condition} in {country} has put hospitals under pressure.'],
    body: ['{person} urged people to see a doctor if symptoms appear.', 'The {org} sent extra staff.',
      'Schools were asked to report absences.', 'Cases have been concentrated in {city}.'],
  },
  {
    kind: 'trial', category: 'health', twin: false, roles: ['chief medical officer', 'lead investigator'],
    headlines: ['{org} drug cuts {condition} hospital admissions in late-stage trial', '{org} shares jump on {condition} trial data',
      '{org} {condition} treatment succeeds in large trial', '{org} to seek approval after {condition} trial'],
    leads: ['{org} said its experimental treatment for {condition} cut hospital admissions by {pct} percent in a large trial.',
      'A late-stage trial of a {org} treatment for {condition} met its main goal, {role} {person} said on Tuesday.'],
    body: ['The trial enrolled {n2} patients in {country} and elsewhere.', '{role} {person} said side effects were mild.',
      'The company will ask regulators for approval this year.', 'Doctors at {org2} welcomed the results.'],
  },
  {
    kind: 'match', category: 'sports', twin: true, roles: ['coach', 'captain'],
    headlines: ['{team} beat {team2} {score}', '{team} stun {team2} in late comeback', '{last} scores twice as {team} win', '{team} clinch title with win over {team2}'],
    leads: ['{person} scored twice as the {team} beat the {team2} {score} in {city} on Saturday.',
      'The {team} came from behind to beat the {team2} {score}, {role} {person2} praising the side\'s spirit.'],
    body: ['The crowd of {n2} was a season record.', '{role} {person2} said the team had worked hard all week.',
      'The {team2} have now lost {n} games in a row.', 'The sides meet again next month.'],
  },
  {
    kind: 'transfer', category: 'sports', twin: false, roles: ['manager', 'sporting director'],
    headlines: ['{team} sign {person} for {money}', '{person} joins {team} on four-year deal',
      '{team} close in on {last} deal', 'Record fee: {last} moves to {team}'],
    leads: ['The {team} have signed {person} from the {team2} for a fee reported to be {money}.',
      '{person} completed a move to the {team} on Friday, the club said.'],
    body: ['{role} {person2} called the signing a statement of intent.', '{last} scored {n} goals last season.',
      'The fee is a club record.', 'Fans gathered outside the stadium in {city}.'],
  },
  {
    kind: 'premiere', category: 'entertainment', twin: false, roles: ['director', 'lead actor'],
    headlines: ['{work} tops box office in opening weekend', '{last}\'s {work} takes {money} on debut',
      '{work} premieres in {city} ahead of release', 'Review: {work} is a quiet triumph'],
    leads: ['{work}, directed by {person}, took in {money} in its opening weekend, {org} said.',
      '{role} {person} walked the red carpet in {city} for the premiere of {work}.'],
    body: ['Critics praised the performances.', '{person2} plays the lead.', 'The film was shot in {country}.',
      'A sequel is already in development, {org} said.'],
  },
  {
    kind: 'awards', category: 'entertainment', twin: true, roles: ['singer', 'director'],
    headlines: ['{person} wins top prize at {city} awards', '{work} sweeps {city} awards', 'Surprise winners at {city} ceremony'],
    leads: ['{role} {person} won the top prize at the awards ceremony in {city} on Sunday night.',
      '{work} won {n} prizes at the annual awards in {city}.'],
    body: ['{person2} presented the award.', 'The ceremony was broadcast in {country}.', '{person} thanked the {org} team.',
      'Organisers said tickets sold out in minutes.'],
  },
];

export function kindsFor(category: Section): EventKind[] {
  return EVENT_KINDS.filter((k) => k.category === category);
}
