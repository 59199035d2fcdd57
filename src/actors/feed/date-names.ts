/**
 * Names the date parser understands: months and weekdays in the languages feeds commonly use,
 * and time-zone abbreviations. Keys are lower-case without diacritics or trailing dots.
 */

/** How the date parser compares words: lower case, no diacritics, no trailing dots. */
export function foldWord(w: string): string {
  return w.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').replace(/\.+$/, '');
}

const MONTH_WORDS: readonly (readonly string[])[] = [
  // en, de, fr, es, it, pt, nl, ca, ro, sv/da/no, fi, pl, cs, hu, tr, id/ms, el, ru, uk (full, genitive, abbreviated)
  ['jan', 'january', 'januar', 'jänner', 'janvier', 'janv', 'enero', 'ene', 'gennaio', 'gen', 'janeiro', 'januari', 'gener', 'ianuarie', 'ian',
    'tammikuu', 'tammikuuta', 'tammi', 'styczeń', 'stycznia', 'sty', 'leden', 'ledna', 'led', 'január', 'ocak', 'oca', 'ιαν', 'ιανουάριος', 'ιανουαρίου', 'январь', 'января', 'янв', 'січень', 'січня', 'січ'],
  ['feb', 'february', 'februar', 'février', 'févr', 'fev', 'febrero', 'febbraio', 'fevereiro', 'februari', 'febrer', 'februarie', 'helmikuu',
    'helmikuuta', 'helmi', 'luty', 'lutego', 'lut', 'únor', 'února', 'úno', 'február', 'şubat', 'şub', 'φεβ', 'φεβρουάριος', 'φεβρουαρίου', 'февраль', 'февраля', 'фев', 'лютий', 'лютого', 'лют'],
  ['mar', 'march', 'märz', 'maerz', 'mars', 'marzo', 'março', 'maart', 'mrt', 'març', 'martie', 'maaliskuu', 'maaliskuuta', 'maalis', 'marzec',
    'marca', 'březen', 'března', 'bře', 'március', 'márc', 'mart', 'maret', 'μαρ', 'μάρτιος', 'μαρτίου', 'μάώ', 'март', 'марта', 'березень', 'березня', 'бер'],
  ['apr', 'april', 'avril', 'avr', 'abril', 'abr', 'aprile', 'aprilie', 'huhtikuu', 'huhtikuuta', 'huhti', 'kwiecień', 'kwietnia', 'kwi', 'duben',
    'dubna', 'április', 'ápr', 'nisan', 'nis', 'απρ', 'απρίλιος', 'απριλίου', 'апрель', 'апреля', 'апр', 'квітень', 'квітня', 'квіт'],
  ['may', 'mai', 'mayo', 'maggio', 'mag', 'maio', 'mei', 'maig', 'maj', 'toukokuu', 'toukokuuta', 'touko', 'maja', 'květen', 'května', 'kvě', 'május',
    'máj', 'mayıs', 'mayis', 'μάι', 'μαΐ', 'μάιος', 'μαΐου', 'μαΐου', 'май', 'мая', 'травень', 'травня', 'трав'],
  ['jun', 'june', 'juni', 'juin', 'junio', 'giugno', 'giu', 'junho', 'juny', 'iunie', 'iun', 'kesäkuu', 'kesäkuuta', 'kesä', 'czerwiec', 'czerwca',
    'cze', 'červen', 'června', 'čvn', 'június', 'jún', 'haziran', 'haz', 'ιούν', 'ιον', 'ιούνιος', 'ιουνίου', 'июнь', 'июня', 'июн', 'червень', 'червня', 'черв'],
  ['jul', 'july', 'juli', 'juillet', 'juil', 'julio', 'luglio', 'lug', 'julho', 'juliol', 'iulie', 'iul', 'heinäkuu', 'heinäkuuta', 'heinä',
    'lipiec', 'lipca', 'lip', 'červenec', 'července', 'čvc', 'čec', 'július', 'júl', 'temmuz', 'tem', 'ιούλ', 'ιολ', 'ιούλιος', 'ιουλίου', 'июль', 'июля', 'июл', 'липень', 'липня', 'лип'],
  ['aug', 'august', 'août', 'agosto', 'ago', 'augustus', 'agost', 'augusti', 'elokuu', 'elokuuta', 'elo', 'sierpień', 'sierpnia', 'sie', 'srpen',
    'srpna', 'augusztus', 'ağustos', 'ağu', 'agustus', 'agu', 'agt', 'αύγ', 'αυγ', 'αύγουστος', 'αυγούστου', 'август', 'августа', 'авг', 'серпень', 'серпня', 'серп'],
  ['sep', 'sept', 'september', 'septembre', 'septiembre', 'setiembre', 'settembre', 'set', 'setembro', 'setembre', 'septembrie', 'syyskuu',
    'syyskuuta', 'syys', 'wrzesień', 'września', 'wrz', 'září', 'zář', 'szeptember', 'szept', 'eylül', 'eyl', 'σεπ', 'σεπτέμβριος', 'σεπτεμβρίου',
    'сентябрь', 'сентября', 'сен', 'сент', 'вересень', 'вересня', 'вер'],
  ['oct', 'october', 'oktober', 'okt', 'octobre', 'octubre', 'ottobre', 'ott', 'outubro', 'out', 'octombrie', 'lokakuu', 'lokakuuta', 'loka',
    'październik', 'października', 'paź', 'říjen', 'října', 'říj', 'október', 'ekim', 'eki', 'οκτ', 'οκτώβριος', 'οκτωβρίου', 'октябрь', 'октября', 'окт', 'жовтень', 'жовтня', 'жовт'],
  ['nov', 'november', 'novembre', 'noviembre', 'novembro', 'noiembrie', 'noi', 'marraskuu', 'marraskuuta', 'marras', 'listopad', 'listopada',
    'listopadu', 'lis', 'kasım', 'kasim', 'kas', 'νοέ', 'νοε', 'νοέμβριος', 'νοεμβρίου', 'ноябрь', 'ноября', 'ноя', 'листопад', 'листопада', 'лист'],
  ['dec', 'december', 'dezember', 'dez', 'décembre', 'diciembre', 'dic', 'dicembre', 'dezembro', 'desembre', 'decembrie', 'joulukuu', 'joulukuuta',
    'joulu', 'grudzień', 'grudnia', 'gru', 'prosinec', 'prosince', 'pro', 'aralık', 'aralik', 'ara', 'desember', 'des', 'δεκ', 'δεκέμβριος', 'δεκεμβρίου',
    'декабрь', 'декабря', 'дек', 'грудень', 'грудня', 'груд'],
];

/** month word → 1..12 */
export const MONTHS: ReadonlyMap<string, number> = new Map(
  MONTH_WORDS.flatMap((words, i) => words.map((w) => [foldWord(w), i + 1] as const)),
);

/** weekday words (skipped; feeds often get the weekday wrong, so it is never checked) */
export const WEEKDAYS: ReadonlySet<string> = new Set(
  [
    'mon', 'tue', 'tues', 'wed', 'thu', 'thur', 'thurs', 'fri', 'sat', 'sun',
    'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
    'mo', 'di', 'mi', 'do', 'fr', 'sa', 'so', 'montag', 'dienstag', 'mittwoch', 'donnerstag', 'freitag', 'samstag', 'sonntag',
    'lun', 'mar', 'mer', 'jeu', 'ven', 'sam', 'dim', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi', 'dimanche',
    'mie', 'jue', 'vie', 'sab', 'dom', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo',
    'gio', 'lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'domenica',
    'seg', 'ter', 'qua', 'qui', 'sex', 'segunda', 'terça', 'quarta', 'quinta', 'sexta',
    'ma', 'wo', 'vr', 'za', 'zo', 'maandag', 'dinsdag', 'woensdag', 'donderdag', 'vrijdag', 'zaterdag', 'zondag',
    'dl', 'dt', 'dc', 'dj', 'dv', 'ds', 'dg', 'dilluns', 'dimarts', 'dimecres', 'dijous', 'divendres', 'dissabte', 'diumenge',
    'luni', 'marți', 'miercuri', 'joi', 'vineri', 'sâmbătă', 'duminică',
    'mån', 'tis', 'ons', 'tor', 'fre', 'lör', 'sön', 'tir', 'lør', 'søn', 'måndag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lördag', 'söndag',
    'mandag', 'tirsdag', 'lørdag', 'søndag',
    'ma', 'ti', 'ke', 'to', 'pe', 'la', 'su', 'maanantai', 'tiistai', 'keskiviikko', 'torstai', 'perjantai', 'lauantai', 'sunnuntai',
    // no 'pt' (Polish Friday): it is Pacific Time after a time
    'pon', 'wt', 'śr', 'czw', 'sob', 'nie', 'niedz', 'poniedziałek', 'wtorek', 'środa', 'czwartek', 'piątek', 'sobota', 'niedziela',
    // no 'út' or 'čt' (Czech Tuesday, Thursday): folded they are the zones UT and CT
    'po', 'st', 'pá', 'ne', 'pondělí', 'úterý', 'středa', 'čtvrtek', 'pátek', 'neděle',
    'hétfő', 'kedd', 'szerda', 'csütörtök', 'péntek', 'szombat', 'vasárnap',
    'pzt', 'sal', 'çar', 'per', 'cum', 'cmt', 'paz', 'pazartesi', 'salı', 'çarşamba', 'perşembe', 'cuma', 'cumartesi', 'pazar',
    'senin', 'selasa', 'rabu', 'kamis', 'jumat', "jum'at", 'sabtu', 'minggu',
    'κυρ', 'δευ', 'τρι', 'τετ', 'πεμ', 'παρ', 'σαβ', 'κυριακή', 'δευτέρα', 'τρίτη', 'τετάρτη', 'πέμπτη', 'παρασκευή', 'σάββατο',
    'пн', 'вт', 'ср', 'чт', 'пт', 'сб', 'вс', 'понедельник', 'вторник', 'среда', 'четверг', 'пятница', 'суббота', 'воскресенье',
  ].map(foldWord),
);

/** words that carry no date information */
export const FILLERS: ReadonlySet<string> = new Set(['de', 'del', 'of', 'the', 'at', 'um', 'uhr', 'feira', 'le', 'el', 'il', 'den', 'der', 'г', 'года', 'godz', 'klo', 'kl', 'ob', 'às', 'alle', 'om'].map((w) => w.normalize('NFD').replace(/\p{M}/gu, '')));

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
  ['wib', 420], ['wita', 480], ['wit', 540], ['ict', 420], ['pht', 480], ['sast', 120], ['cat', 120], ['eat', 180], ['wat', 60],
  ['brt', -180], ['art', -180], ['pkt', 300], ['npt', 345],
  ['jst', 540], ['kst', 540], ['acst', 570], ['acdt', 630], ['aest', 600], ['aedt', 660], ['nzst', 720], ['nzdt', 780],
  // military letters as RFC 822 read them (the sign convention feeds actually use)
  ['a', -60], ['n', 60], ['m', -720], ['y', 720],
]);
