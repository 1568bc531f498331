/**
 * Abbreviations written with a full stop that is not a sentence end, and what is said: every
 * reading, the commonest first ("St." is read "saint" before a name, its commonest use in read
 * texts, and "street" in an address; both are accepted).
 */
export const ABBREVIATIONS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  mr: [['mister']], mrs: [['missus']], ms: [['miz']], dr: [['doctor'], ['drive']], prof: [['professor']],
  st: [['saint'], ['street']], jr: [['junior']], sr: [['senior']], vs: [['versus']], etc: [['et', 'cetera']],
  mt: [['mount']], no: [['number']], 'e.g': [['for', 'example']], 'i.e': [['that', 'is']],
  'a.m': [['a.m.']], 'p.m': [['p.m.']], 'u.s': [['u.', 's.']], 'u.k': [['u.', 'k.']],
  rd: [['road']], ave: [['avenue']], blvd: [['boulevard']], ln: [['lane']], pl: [['place']], ct: [['court']],
  apt: [['apartment']], sq: [['square']], hwy: [['highway']],
};

/**
 * Street words written short without a full stop in an address ("Renton Pl", "Ridge Rd", "Park
 * Ave"): read as the street word when written with a capital. (The dictionary reads "St", "Dr"
 * and "Blvd" as street or saint, drive or doctor, and boulevard already; its "ave" is the Latin
 * word.)
 */
export const STREET_ABBREVIATIONS: ReadonlySet<string> = new Set(['rd', 'ln', 'pl', 'ct', 'apt', 'sq', 'hwy', 'ave']);

/** Compass points written as capitals in an address ("SE 184th"), also accepted spelt out. */
export const COMPASS_POINTS: Readonly<Record<string, readonly string[]>> = {
  ne: ['north', 'east'], nw: ['north', 'west'], se: ['south', 'east'], sw: ['south', 'west'],
};

/**
 * US state codes: written in capitals ("Renton WA") the state's name is also accepted, beside the
 * word or the letters the code is otherwise read as; not in a text written all in capitals,
 * where "IN", "OR" and "ME" are the words.
 */
export const US_STATES: Readonly<Record<string, string>> = {
  al: 'alabama', ak: 'alaska', az: 'arizona', ar: 'arkansas', ca: 'california', co: 'colorado', ct: 'connecticut',
  de: 'delaware', dc: 'district of columbia', fl: 'florida', ga: 'georgia', hi: 'hawaii', id: 'idaho', il: 'illinois',
  in: 'indiana', ia: 'iowa', ks: 'kansas', ky: 'kentucky', la: 'louisiana', me: 'maine', md: 'maryland',
  ma: 'massachusetts', mi: 'michigan', mn: 'minnesota', ms: 'mississippi', mo: 'missouri', mt: 'montana',
  ne: 'nebraska', nv: 'nevada', nh: 'new hampshire', nj: 'new jersey', nm: 'new mexico', ny: 'new york',
  nc: 'north carolina', nd: 'north dakota', oh: 'ohio', ok: 'oklahoma', or: 'oregon', pa: 'pennsylvania',
  ri: 'rhode island', sc: 'south carolina', sd: 'south dakota', tn: 'tennessee', tx: 'texas', ut: 'utah',
  vt: 'vermont', va: 'virginia', wa: 'washington', wv: 'west virginia', wi: 'wisconsin', wy: 'wyoming',
};

/**
 * Units written short after a number ("5 km", "10 kg", "2 GB"): the plural, the singular after
 * 1; the letters stay accepted. Keys are case-sensitive (`m` metres, `M` million).
 */
export const UNITS: Readonly<Record<string, readonly [string, string]>> = {
  km: ['kilometers', 'kilometer'], m: ['meters', 'meter'], cm: ['centimeters', 'centimeter'], mm: ['millimeters', 'millimeter'],
  kg: ['kilograms', 'kilogram'], g: ['grams', 'gram'], mg: ['milligrams', 'milligram'], lb: ['pounds', 'pound'], lbs: ['pounds', 'pound'],
  oz: ['ounces', 'ounce'], ft: ['feet', 'foot'], mi: ['miles', 'mile'], mph: ['miles per hour', 'mile per hour'],
  kph: ['kilometers per hour', 'kilometer per hour'], ml: ['milliliters', 'milliliter'], l: ['liters', 'liter'],
  hr: ['hours', 'hour'], hrs: ['hours', 'hour'], min: ['minutes', 'minute'], mins: ['minutes', 'minute'],
  sec: ['seconds', 'second'], secs: ['seconds', 'second'], KB: ['kilobytes', 'kilobyte'], MB: ['megabytes', 'megabyte'],
  GB: ['gigabytes', 'gigabyte'], TB: ['terabytes', 'terabyte'], M: ['million', 'million'], bn: ['billion', 'billion'],
};

/** The degree sign, alone or with a scale ("25°C", "77 °F"): every reading accepted. */
export const DEGREES: Readonly<Record<string, readonly string[][]>> = {
  '°': [['degrees']],
  '°C': [['degrees', 'celsius'], ['degrees', 'centigrade'], ['degrees']],
  '°F': [['degrees', 'fahrenheit'], ['degrees']],
};

/** "am"/"pm" written without stops right after a time ("10:30 pm"). */
export const TIME_SUFFIXES: Readonly<Record<string, string>> = { am: 'a.m.', pm: 'p.m.' };
