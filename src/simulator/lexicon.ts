/**
 * Word lists for synthetic news. People and organisations are invented; cities and countries are
 * real names (facts, not text). Nothing here is taken from any data set.
 */

/** A real city and its ISO 3166-1 alpha-2 country, used for datelines and event places. */
export interface City {
  readonly city: string;
  readonly country: string;
  readonly countryName: string;
}

export const CITIES: readonly City[] = [
  ['New York', 'US', 'the United States'], ['Chicago', 'US', 'the United States'], ['Houston', 'US', 'the United States'],
  ['Denver', 'US', 'the United States'], ['Seattle', 'US', 'the United States'], ['Atlanta', 'US', 'the United States'],
  ['London', 'GB', 'Britain'], ['Manchester', 'GB', 'Britain'], ['Glasgow', 'GB', 'Britain'],
  ['Paris', 'FR', 'France'], ['Lyon', 'FR', 'France'], ['Berlin', 'DE', 'Germany'], ['Hamburg', 'DE', 'Germany'],
  ['Munich', 'DE', 'Germany'], ['Madrid', 'ES', 'Spain'], ['Valencia', 'ES', 'Spain'], ['Rome', 'IT', 'Italy'],
  ['Milan', 'IT', 'Italy'], ['Warsaw', 'PL', 'Poland'], ['Amsterdam', 'NL', 'the Netherlands'],
  ['Stockholm', 'SE', 'Sweden'], ['Athens', 'GR', 'Greece'], ['Lisbon', 'PT', 'Portugal'],
  ['Tokyo', 'JP', 'Japan'], ['Osaka', 'JP', 'Japan'], ['Seoul', 'KR', 'South Korea'], ['Jakarta', 'ID', 'Indonesia'],
  ['Manila', 'PH', 'the Philippines'], ['Mumbai', 'IN', 'India'], ['Delhi', 'IN', 'India'], ['Chennai', 'IN', 'India'],
  ['Sydney', 'AU', 'Australia'], ['Melbourne', 'AU', 'Australia'], ['Auckland', 'NZ', 'New Zealand'],
  ['Singapore', 'SG', 'Singapore'], ['Bangkok', 'TH', 'Thailand'], ['Toronto', 'CA', 'Canada'],
  ['Vancouver', 'CA', 'Canada'], ['Mexico City', 'MX', 'Mexico'], ['Monterrey', 'MX', 'Mexico'],
  ['Sao Paulo', 'BR', 'Brazil'], ['Rio de Janeiro', 'BR', 'Brazil'], ['Buenos Aires', 'AR', 'Argentina'],
  ['Santiago', 'CL', 'Chile'], ['Lima', 'PE', 'Peru'], ['Bogota', 'CO', 'Colombia'], ['Lagos', 'NG', 'Nigeria'],
  ['Nairobi', 'KE', 'Kenya'], ['Johannesburg', 'ZA', 'South Africa'], ['Cairo', 'EG', 'Egypt'],
  ['Dubai', 'AE', 'the United Arab Emirates'], ['Riyadh', 'SA', 'Saudi Arabia'], ['Istanbul', 'TR', 'Turkey'],
  ['Casablanca', 'MA', 'Morocco'],
].map(([city, country, countryName]) => ({ city, country, countryName }) as City);

export const FIRST_NAMES: readonly string[] = [
  'Amara', 'Bastian', 'Celine', 'Dario', 'Elena', 'Farid', 'Greta', 'Hiroshi', 'Ines', 'Jonas', 'Kavya', 'Lionel',
  'Marisol', 'Nikolai', 'Odette', 'Pavel', 'Quentin', 'Rosalind', 'Soren', 'Tamsin', 'Umar', 'Valeria', 'Wendell',
  'Ximena', 'Yusuf', 'Zofia', 'Anouk', 'Bram', 'Camila', 'Desmond', 'Esther', 'Florian', 'Gideon', 'Halima',
  'Ingrid', 'Joaquin', 'Keiko', 'Leopold', 'Maeve', 'Nnamdi',
];

const SURNAME_HEADS = ['Ash', 'Bren', 'Cast', 'Dun', 'Eber', 'Falk', 'Grim', 'Halv', 'Ibar', 'Jess', 'Kow', 'Lind', 'March', 'Nak', 'Oken', 'Pem', 'Quar', 'Ras', 'Sant', 'Thor', 'Und', 'Whit', 'Zel', 'Aber'];
const SURNAME_TAILS = ['combe', 'nick', 'ellano', 'more', 'hardt', 'ner', 'aldo', 'orsen', 'qvist', 'etti', 'amori', 'wick', 'ley', 'ton', 'field', 'berg', 'mann', 'sen', 'ford', 'hurst'];

/**
 * Surnames: hundreds, as in real news. With forty, a dozen running events shared each surname,
 * and a headline naming only "Lindqvist" could be any of them (a senator, a coach, a minister).
 */
export const LAST_NAMES: readonly string[] = [
  'Castellano', 'Kowalczyk', 'Lindqvist', 'Okonkwo', 'Vasquez-Lorne', 'Yamada-Reyes', 'Delacroix', 'Fontaine', 'Gallagher', 'Moreau',
  ...SURNAME_HEADS.flatMap((h) => SURNAME_TAILS.map((t) => h + t)),
].filter((n, i, all) => all.indexOf(n) === i);

const ORG_HEADS = ['Vel', 'North', 'Quil', 'Bright', 'Or', 'Hal', 'Strata', 'Iron', 'Lu', 'Cobal', 'Meri', 'Pine', 'Sol', 'Tess', 'Arc', 'Ky', 'Nim', 'Ross', 'Van', 'Zeph', 'Glen', 'Aur', 'Cor', 'Ebon'];
const ORG_TAILS = ['trane', 'gate', 'lon', 'water', 'vex', 'cyon', 'core', 'leaf', 'mora', 'tix', 'del', 'crest', 'vane', 'aro', 'well', 'beron', 'bra', 'stone', 'tor', 'yra', 'mark', 'alis', 'vanta', 'wick'];

/**
 * Company and institution name roots: hundreds, as in real news, so that two companies in the
 * same kind of news seldom share a name (with two dozen every merger story had a namesake).
 */
export const ORG_ROOTS: readonly string[] = ORG_HEADS.flatMap((h) => ORG_TAILS.map((t) => h + t));

export const ORG_SUFFIXES: Record<string, readonly string[]> = {
  business: ['Holdings', 'Capital', 'Group', 'Industries', 'Logistics', 'Retail', 'Energy', 'Bank'],
  technology: ['Systems', 'Labs', 'Networks', 'Semiconductor', 'Software', 'Robotics', 'Cloud', 'AI'],
  science: ['Institute', 'Observatory', 'Research Centre', 'Space Agency', 'Laboratory'],
  health: ['Pharmaceuticals', 'Biotech', 'Health', 'Therapeutics', 'Medical Centre'],
  politics: ['Party', 'Alliance', 'Coalition', 'Movement'],
  world: ['Relief Agency', 'Aid Network', 'Red Cross Chapter', 'Monitoring Group'],
  sports: ['Football Club', 'Athletic Club', 'Racing Team'],
  entertainment: ['Studios', 'Pictures', 'Records', 'Streaming', 'Games'],
};

export const TEAM_MASCOTS: readonly string[] = [
  'Falcons', 'Mariners', 'Comets', 'Wolves', 'Rangers', 'Thunder', 'Harriers', 'Royals', 'Stallions', 'Titans',
];

const WORK_FIRST = ['Glass', 'Midnight', 'Salt', 'Last', 'Paper', 'Quiet', 'Copper', 'Velvet', 'Silver', 'Hollow', 'Winter', 'Amber'];
const WORK_SECOND = ['Orchard', 'Ledger', 'Signal', 'Cartographer', 'Lanterns', 'Frontier', 'Sky', 'Accord', 'Harbour', 'Garden', 'Meridian', 'Tide'];

/** Films and albums: "The Glass Orchard", "Midnight Ledger" and the like. */
export const WORKS: readonly string[] = WORK_FIRST.flatMap((a, i) => WORK_SECOND.map((b, j) => ((i + j) % 2 === 0 ? `The ${a} ${b}` : `${a} ${b}`)));

const PRODUCT_NAMES = ['Aero', 'Pulse', 'Nova', 'Lumen', 'Orbit', 'Vector', 'Quanta', 'Halo', 'Zenith', 'Flux', 'Echo', 'Prism', 'Apex', 'Drift', 'Nimbus', 'Cirrus', 'Ember', 'Sable', 'Tidal', 'Vertex', 'Kite', 'Onyx', 'Rune', 'Fathom'];
const PRODUCT_KINDS = ['X2 laptop', '9 smartphone', 'home assistant', 'smart glasses', 'tablet', 'electric scooter', 'server chip', 'earbuds'];

/** Devices: a model name and a kind ("Nova home assistant"). */
export const PRODUCTS: readonly string[] = PRODUCT_NAMES.flatMap((n) => PRODUCT_KINDS.map((k) => `${n} ${k}`));

export const CONDITIONS: readonly string[] = [
  'measles', 'dengue fever', 'a respiratory virus', 'cholera', 'seasonal influenza', 'type 2 diabetes',
  'Alzheimer\'s disease', 'migraine',
];

/** Outlet name patterns: `{city}` is the outlet's home city. */
export const OUTLET_PATTERNS: readonly string[] = [
  'The {city} Courier', '{city} Herald', 'The {city} Ledger', '{city} Evening Post', '{city} Daily Dispatch',
  'The {city} Observer', '{city} Chronicle', '{city} Morning Star', 'The {city} Sentinel', '{city} Gazette',
  '{city} Tribune', 'The {city} Examiner', '{city} Record', '{city} Standard', 'The {city} Beacon',
];

/** Section-specific outlet names, for trade and specialist sites. */
export const SPECIALIST_PATTERNS: Record<string, readonly string[]> = {
  business: ['{city} Business Journal', 'Market Wire {city}', 'The {city} Trader'],
  technology: ['{city} Tech Review', 'Circuit {city}', 'The {city} Byte'],
  science: ['{city} Science Notes', 'Frontier Lab {city}'],
  health: ['{city} Health Report', 'Clinic Watch {city}'],
  politics: ['{city} Capitol Report', 'The {city} Statehouse'],
  world: ['{city} World Desk', 'The {city} Globe'],
  sports: ['{city} Sports Daily', 'Final Whistle {city}', 'The {city} Scorecard'],
  entertainment: ['{city} Showbiz', 'Marquee {city}', 'The {city} Screen'],
};

/** Fictional wire agencies whose stories outlets syndicate. */
export const WIRE_AGENCIES: readonly { name: string; short: string; city: City }[] = [
  { name: 'Meridian Press Agency', short: 'MPA', city: CITIES[6] as City },
  { name: 'Atlas Wire Service', short: 'Atlas', city: CITIES[0] as City },
  { name: 'Continental News Exchange', short: 'CNX', city: CITIES[9] as City },
];

/** Word swaps that copy editors make; each pair works in both directions. */
export const SYNONYMS: readonly (readonly [string, string])[] = [
  ['says', 'said'], ['rises', 'climbs'], ['falls', 'drops'], ['plans', 'intends'], ['amid', 'during'],
  ['after', 'following'], ['hits', 'strikes'], ['warns', 'cautions'], ['officials', 'authorities'],
  ['announced', 'unveiled'], ['residents', 'locals'], ['about', 'around'], ['big', 'major'],
  ['quickly', 'rapidly'], ['help', 'assist'], ['shows', 'reveals'], ['people', 'residents'],
  ['will', 'is set to'], ['wins', 'clinches'], ['record', 'all-time'],
];

/** Our category taxonomy (DESIGN.md section 7), without the virtual `top`. */
export { CATEGORIES as SECTIONS, type Category as Section } from '../actors/model/index.js';
