/**
 * Numbers written with digits → the words a reader says, in lower case (American usage:
 * no "and" inside cardinals, "two thousand five" for 2005).
 *  - cardinals up to 999,999,999,999 ("1,250" → one thousand two hundred fifty)
 *  - ordinals "1st", "22nd", "103rd" → first, twenty second, one hundred third
 *  - years: a bare four-digit number from 1100 to 2099 that is not a multiple of 1000 is read
 *    as a year ("1990" → nineteen ninety, "1905" → nineteen oh five, "2005" → two thousand five,
 *    "2019" → twenty nineteen); "1990s" → nineteen nineties
 *  - decimals "3.14" → three point one four
 *  - seven digits or more written without a comma (a telephone number, an identifier) digit by
 *    digit: "8885112931" → eight eight eight five one one two nine three one
 *  - times "10:30" → ten thirty, "7:05" → seven oh five, "9:00" → nine o'clock
 *  - with a currency sign or percent: "$5" → five dollars, "$2.50" → two dollars fifty cents,
 *    "50%" → fifty percent
 * `numberReadings` adds the other readings people give the same token (British "and", digit by
 * digit, in pairs, hundreds), all of which a scorer accepts.
 */

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
  'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', 'thousand', 'million', 'billion'];

const ORDINAL_IRREGULAR: Readonly<Record<string, string>> = {
  one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth',
};

/** `and`: the British (and common American) "and" after hundred: "four hundred and seven". */
function underThousand(n: number, and = false): string[] {
  const out: string[] = [];
  if (n >= 100) { out.push(ONES[Math.floor(n / 100)], 'hundred'); n %= 100; if (and && n > 0) out.push('and'); }
  if (n >= 20) { out.push(TENS[Math.floor(n / 10)]); n %= 10; if (n > 0) out.push(ONES[n]); }
  else if (n > 0) out.push(ONES[n]);
  return out;
}

/**
 * A non-negative integer as cardinal words; with `and`, the British form ("one hundred and
 * five", "two thousand and nineteen": "and" after hundred and before a last group under 100).
 */
export function cardinalWords(n: number, and = false): string[] {
  if (!Number.isSafeInteger(n) || n < 0 || n >= 1e12) throw new RangeError(`number out of range: ${n}`);
  if (n === 0) return ['zero'];
  const out: string[] = [];
  for (let scale = SCALES.length - 1; scale >= 0; scale--) {
    const unit = 1000 ** scale;
    const chunk = Math.floor(n / unit) % 1000;
    if (chunk === 0) continue;
    if (and && scale === 0 && chunk < 100 && out.length > 0) out.push('and');
    out.push(...underThousand(chunk, and), ...(scale > 0 ? [SCALES[scale]] : []));
  }
  return out;
}

/** Turns the last word of a cardinal into its ordinal ("twenty two" → "twenty second"). */
function ordinalOf(words: string[]): string[] {
  const last = words[words.length - 1];
  const ord = ORDINAL_IRREGULAR[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`);
  return [...words.slice(0, -1), ord];
}

export function ordinalWords(n: number): string[] {
  return ordinalOf(cardinalWords(n));
}

/** Year reading: two pairs of digits, with "oh" and "hundred" where needed. */
export function yearWords(n: number): string[] {
  if (n >= 2000 && n < 2010) return cardinalWords(n);
  const hi = Math.floor(n / 100);
  const lo = n % 100;
  if (lo === 0) return [...cardinalWords(hi), 'hundred'];
  return [...cardinalWords(hi), ...(lo < 10 ? ['oh', ONES[lo]] : cardinalWords(lo))];
}

function pluralOf(words: string[]): string[] {
  const last = words[words.length - 1];
  const plural = last.endsWith('y') ? `${last.slice(0, -1)}ies` : last.endsWith('x') ? `${last}es` : `${last}s`;
  return [...words.slice(0, -1), plural];
}

function digitsWords(digits: string, zero = 'zero'): string[] {
  return [...digits].map((d) => (d === '0' ? zero : ONES[Number(d)]));
}

/** Digit by digit with a run of two or three alike said "double" or "triple" ("5511" → double five double one), or null when there is none. */
function runsWords(digits: string, zero: string): string[] | null {
  const runs = digits.match(/(\d)\1*/g) ?? [];
  if (!runs.some((r) => r.length === 2 || r.length === 3)) return null;
  return runs.flatMap((r) => {
    const word = r[0] === '0' ? zero : ONES[Number(r[0])];
    if (r.length === 2) return ['double', word];
    if (r.length === 3) return ['triple', word];
    return Array<string>(r.length).fill(word);
  });
}

/** Digit by digit, with "oh" and with "zero", and with runs said "double" and "triple". */
function digitByDigit(plain: string): string[][] {
  return ['oh', 'zero'].flatMap((zero) => [digitsWords(plain, zero), runsWords(plain, zero)]).filter((r): r is string[] => r !== null);
}

function isYear(n: number, text: string): boolean {
  return /^\d{4}$/.test(text) && n >= 1100 && n < 2100 && n % 1000 !== 0;
}

const CURRENCY: Readonly<Record<string, [string, string, string, string]>> = {
  $: ['dollar', 'dollars', 'cent', 'cents'],
  '£': ['pound', 'pounds', 'penny', 'pence'],
  '€': ['euro', 'euros', 'cent', 'cents'],
};

function money(sign: string, whole: number, cents: number | null): string[] {
  const [one, many, subOne, subMany] = CURRENCY[sign];
  const out = [...cardinalWords(whole), whole === 1 ? one : many];
  if (cents !== null && cents > 0) out.push(...cardinalWords(cents), cents === 1 ? subOne : subMany);
  return out;
}

/** The shape of a number token the tokenizer recognises. */
export const NUMBER_TOKEN = /[$£€]?\d+(?:,\d{3})*(?:\.\d+|:\d{2})?(?:st|nd|rd|th|s|%)?/y;

/** The parts of a number token: sign, integer as written, decimals or minutes, suffix. */
const NUMBER_PARTS = /^([$£€]?)(\d+(?:,\d{3})*)(?:\.(\d+)|:(\d{2}))?(st|nd|rd|th|s|%)?$/i;

/** Spoken words of a number token matched by NUMBER_TOKEN; null if the shape is not handled. */
export function numberToWords(token: string): string[] | null {
  const m = NUMBER_PARTS.exec(token);
  if (!m) return null;
  const [, sign, intText, decimals, minutes, suffix] = m;
  const plain = intText.replace(/,/g, '');
  if (plain.length > 12) return digitsWords(plain);
  // Seven digits or more without a comma: a telephone number or an identifier, read digit by digit.
  if (plain === intText && plain.length >= 7 && !sign && decimals === undefined && minutes === undefined && !suffix) return digitsWords(plain);
  const n = Number(plain);
  const lower = suffix?.toLowerCase();
  if (sign) {
    if (minutes !== undefined || (lower && lower !== '%')) return null;
    return money(sign, n, decimals !== undefined ? Number(decimals.padEnd(2, '0').slice(0, 2)) : null);
  }
  if (minutes !== undefined) {
    const mm = Number(minutes);
    if (mm === 0) return [...cardinalWords(n), "o'clock"];
    return [...cardinalWords(n), ...(mm < 10 ? ['oh', ONES[mm]] : cardinalWords(mm))];
  }
  const base = decimals !== undefined
    ? [...cardinalWords(n), 'point', ...digitsWords(decimals)]
    : isYear(n, intText) ? yearWords(n) : cardinalWords(n);
  if (lower === '%') return [...base, 'percent'];
  if (lower === 's') return pluralOf(base);
  if (lower && decimals === undefined) return ordinalOf(cardinalWords(n));
  return decimals !== undefined && lower ? null : base;
}

/** Two digits as said in a pair: "07" → oh seven, "00" → hundred, "15" → fifteen. */
function pairWords(n: number): string[] {
  return n === 0 ? ['hundred'] : n < 10 ? ['oh', ONES[n]] : cardinalWords(n);
}

const COUNTED = new Set(['hundred', 'thousand', 'million', 'billion']);

/** "one hundred and five" → "a hundred and five" (also thousand, million, billion). */
function withA(words: string[]): string[] | null {
  return words[0] === 'one' && COUNTED.has(words[1]) ? ['a', ...words.slice(1)] : null;
}

/** The counts an integer is read as: American, British "and", "a hundred", and hundreds past a thousand. */
function countReadings(n: number, year: boolean): string[][] {
  const counts = [cardinalWords(n), cardinalWords(n, true)];
  const out = [...counts, ...(year ? [] : counts.map(withA).filter((r): r is string[] => r !== null))];
  // "twelve hundred (and) fifty" for 1,250: hundreds counted past a thousand.
  if (n >= 1100 && n < 10000 && Math.floor(n / 100) % 10 !== 0) {
    const rest = n % 100;
    const hundreds = [...cardinalWords(Math.floor(n / 100)), 'hundred'];
    out.push([...hundreds, ...(rest > 0 ? cardinalWords(rest) : [])]);
    if (rest > 0) out.push([...hundreds, 'and', ...cardinalWords(rest)]);
  }
  return out;
}

/**
 * Three to five digits in pairs: "407" → four oh seven, "4812" → forty eight twelve, "1200" →
 * twelve hundred; a house number of five, "11438" → eleven four thirty eight, or eleven and then
 * digit by digit.
 */
function pairReadings(n: number, plain: string): string[][] {
  if (plain[0] === '0') return [];
  if (plain.length === 3) return [[ONES[Number(plain[0])], ...pairWords(n % 100)]];
  if (plain.length === 4 && n % 1000 !== 0) return [[...cardinalWords(Math.floor(n / 100)), ...pairWords(n % 100)]];
  if (plain.length === 5) {
    const lead = cardinalWords(Number(plain.slice(0, 2)));
    return [[...lead, ...digitsWords(plain[2]), ...pairWords(n % 100)], [...lead, ...digitsWords(plain.slice(2), 'oh')]];
  }
  return [];
}

/** An integer written without a comma is also read in pairs and digit by digit ("four oh seven", "four zero seven", "double eight five"). */
function digitReadings(n: number, plain: string): string[][] {
  const out = n === 0 ? [['oh']] : pairReadings(n, plain);
  if (plain.length >= 3 || (plain.length > 1 && plain[0] === '0')) out.push(...digitByDigit(plain));
  return out;
}

function uniqueReadings(readings: string[][]): string[][] {
  return [...new Map(readings.map((r) => [r.join(' '), r])).values()];
}

/**
 * Every reading of a number token matched by NUMBER_TOKEN that a scorer accepts, the usual
 * American one (`numberToWords`) first: the British "and" ("four hundred and seven"), and for
 * integers written without a comma digit by digit ("four oh seven", "four zero seven"), in pairs
 * ("four oh seven", "forty eight twelve", "twelve hundred") and in hundreds ("twelve hundred
 * fifty"); a year also as a count ("two thousand (and) nineteen"); a time on the hour also
 * without "o'clock"; money also with "and" before the cents or as the bare amount ("two
 * fifty"); a decimal under one also without its zero ("point five"); an ordinal also in pairs
 * ("184th" → one eighty fourth). Null if not handled.
 */
export function numberReadings(token: string): string[][] | null {
  const first = numberToWords(token);
  const m = NUMBER_PARTS.exec(token);
  if (!first || !m) return first ? [first] : null;
  const [, sign, intText, decimals, minutes, suffix] = m;
  const plain = intText.replace(/,/g, '');
  if (plain.length > 12) return uniqueReadings([first, ...digitByDigit(plain)]);
  const n = Number(plain);
  const lower = suffix?.toLowerCase();
  const counts = countReadings(n, !sign && decimals === undefined && minutes === undefined && isYear(n, intText));
  const out = [first];
  if (sign) {
    const [one, many, subOne, subMany] = CURRENCY[sign];
    const cents = decimals !== undefined ? Number(decimals.padEnd(2, '0').slice(0, 2)) : 0;
    for (const whole of counts) {
      const amount = [...whole, n === 1 ? one : many];
      if (cents === 0) { out.push(amount); continue; }
      const sub = [...cardinalWords(cents), cents === 1 ? subOne : subMany];
      out.push([...amount, ...sub], [...amount, 'and', ...sub], [...whole, ...cardinalWords(cents)]);
    }
  } else if (minutes !== undefined) {
    if (Number(minutes) === 0) out.push(cardinalWords(n));
  } else if (lower === 's') {
    // "1990s": the decade as first given.
  } else if (lower && lower !== '%') {
    // "184th": one hundred (and) eighty fourth, or in pairs, one eighty fourth.
    out.push(...counts.map(ordinalOf), ...(intText.includes(',') ? [] : pairReadings(n, plain).map(ordinalOf)));
  } else {
    const fraction = decimals === undefined ? [] : [['point', ...digitsWords(decimals)], ['point', ...digitsWords(decimals, 'oh')]];
    const readings = decimals === undefined
      ? [...counts, ...(intText.includes(',') ? [] : digitReadings(n, plain))]
      : (n === 0 ? [['zero'], ['oh'], []] : counts).flatMap((whole) => fraction.map((f) => [...whole, ...f]));
    out.push(...(lower === '%' ? readings.map((r) => [...r, 'percent']) : readings));
  }
  return uniqueReadings(out);
}

/** "3/4" → three quarters, three fourths, three over four; "1/2" → one half, a half. Numerator and denominator up to three digits. */
export function fractionReadings(numerator: number, denominator: number): string[][] {
  const count = cardinalWords(numerator);
  const plural = numerator !== 1;
  const names = denominator === 2 ? [plural ? 'halves' : 'half'] : denominator === 4 ? [plural ? 'quarters' : 'quarter', plural ? 'fourths' : 'fourth'] : [];
  const ordinal = ordinalWords(denominator);
  if (denominator > 2) names.push([...ordinal.slice(0, -1), plural ? pluralOf(ordinal).at(-1)! : ordinal.at(-1)!].join(' '));
  const out = [...new Set(names)].map((name) => [...count, ...name.split(' ')]);
  if (numerator === 1 && denominator <= 4) out.push(...out.map((r) => ['a', ...r.slice(1)]));
  out.push([...count, 'over', ...cardinalWords(denominator)]);
  return uniqueReadings(out);
}

const ROMAN = /^(X{0,3})(IX|IV|V?I{0,3})$/;
const ROMAN_DIGITS: Readonly<Record<string, number>> = { I: 1, V: 5, X: 10 };

/**
 * The value of a Roman numeral of two or more of the letters I, V and X in capitals (II to
 * XXXIX: "World War II", "Henry VIII", "Chapter XII"), else null. Single letters are words
 * (I) or letters (V, X).
 */
export function romanValue(text: string): number | null {
  if (text.length < 2 || !ROMAN.test(text)) return null;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const v = ROMAN_DIGITS[text[i]];
    const next = ROMAN_DIGITS[text[i + 1]] ?? 0;
    value += v < next ? -v : v;
  }
  return value;
}
