/**
 * Names the date parser understands: months and weekdays in the languages feeds commonly use,
 * and time-zone abbreviations. Keys are lower-case without diacritics or trailing dots.
 */

const MONTH_WORDS: readonly (readonly string[])[] = [
  // en, de, fr, es, it, pt, nl (full and abbreviated)
  ['jan', 'january', 'januar', 'janner', 'janvier', 'janv', 'enero', 'ene', 'gennaio', 'gen', 'janeiro', 'januari'],
  ['feb', 'february', 'februar', 'fevrier', 'fevr', 'fev', 'febrero', 'febbraio', 'fevereiro', 'februari'],
  ['mar', 'march', 'marz', 'maerz', 'mars', 'marzo', 'marco', 'maart', 'mrt'],
  ['apr', 'april', 'avril', 'avr', 'abril', 'abr', 'aprile'],
  ['may', 'mai', 'mayo', 'maggio', 'mag', 'maio', 'mei'],
  ['jun', 'june', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho'],
  ['jul', 'july', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julho'],
  ['aug', 'august', 'aout', 'agosto', 'ago', 'augustus'],
  ['sep', 'sept', 'september', 'septembre', 'septiembre', 'setiembre', 'settembre', 'set', 'setembro'],
  ['oct', 'october', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro', 'out'],
  ['nov', 'november', 'novembre', 'noviembre', 'novembro'],
  ['dec', 'december', 'dezember', 'dez', 'decembre', 'diciembre', 'dic', 'dicembre', 'dezembro'],
];

/** month word → 1..12 */
export const MONTHS: ReadonlyMap<string, number> = new Map(
  MONTH_WORDS.flatMap((words, i) => words.map((w) => [w, i + 1] as const)),
);

/** weekday words (skipped; feeds often get the weekday wrong, so it is never checked) */
export const WEEKDAYS: ReadonlySet<string> = new Set([
  'mon', 'tue', 'tues', 'wed', 'thu', 'thur', 'thurs', 'fri', 'sat', 'sun',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
  'mo', 'di', 'mi', 'do', 'fr', 'sa', 'so', 'montag', 'dienstag', 'mittwoch', 'donnerstag', 'freitag', 'samstag', 'sonntag',
  'lun', 'mar', 'mer', 'jeu', 'ven', 'sam', 'dim', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche',
  'mie', 'jue', 'vie', 'sab', 'dom', 'lunes', 'martes', 'miercoles', 'jueves', 'viernes', 'sabado', 'domingo',
  'gio', 'lunedi', 'martedi', 'mercoledi', 'giovedi', 'venerdi', 'domenica',
  'seg', 'ter', 'qua', 'qui', 'sex', 'segunda', 'terca', 'quarta', 'quinta', 'sexta',
  'ma', 'wo', 'vr', 'za', 'zo', 'maandag', 'dinsdag', 'woensdag', 'donderdag', 'vrijdag', 'zaterdag', 'zondag',
]);

/** words that carry no date information */
export const FILLERS: ReadonlySet<string> = new Set(['de', 'del', 'of', 'the', 'at', 'um', 'uhr', 'feira', 'le', 'el', 'il', 'den', 'der']);

/** zone abbreviation → minutes east of UTC (RFC 822 names, their common short forms, a few more) */
export const ZONES: ReadonlyMap<string, number> = new Map([
  ['ut', 0], ['utc', 0], ['gmt', 0], ['z', 0], ['wet', 0],
  ['adt', -180], ['ast', -240], ['at', -240],
  ['edt', -240], ['est', -300], ['et', -300],
  ['cdt', -300], ['cst', -360], ['ct', -360],
  ['mdt', -360], ['mst', -420], ['mt', -420],
  ['pdt', -420], ['pst', -480], ['pt', -480],
  ['akdt', -480], ['akst', -540], ['hst', -600], ['hast', -600], ['hadt', -540],
  ['ndt', -150], ['nst', -210],
  ['met', 60], ['mest', 120], ['mez', 60], ['mesz', 120], ['cet', 60], ['cest', 120], ['bst', 60], ['west', 60],
  ['eet', 120], ['eest', 180], ['msk', 180], ['ist', 330], ['sgt', 480], ['hkt', 480], ['awst', 480],
  ['jst', 540], ['kst', 540], ['acst', 570], ['acdt', 630], ['aest', 600], ['aedt', 660], ['nzst', 720], ['nzdt', 780],
  // military letters as RFC 822 read them (the sign convention feeds actually use)
  ['a', -60], ['n', 60], ['m', -720], ['y', 720],
]);
