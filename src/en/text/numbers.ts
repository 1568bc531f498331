/**
 * Numbers written with digits → the words a reader says, in lower case (American usage:
 * no "and" inside cardinals, "two thousand five" for 2005).
 *  - cardinals up to 999,999,999,999 ("1,250" → one thousand two hundred fifty)
 *  - ordinals "1st", "22nd", "103rd" → first, twenty second, one hundred third
 *  - years: a bare four-digit number from 1100 to 2099 that is not a multiple of 1000 is read
 *    as a year ("1990" → nineteen ninety, "1905" → nineteen oh five, "2005" → two thousand five,
 *    "2019" → twenty nineteen); "1990s" → nineteen nineties
 *  - decimals "3.14" → three point one four
 *  - times "10:30" → ten thirty, "7:05" → seven oh five, "9:00" → nine o'clock
 *  - with a currency sign or percent: "$5" → five dollars, "$2.50" → two dollars fifty cents,
 *    "50%" → fifty percent
 */

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten',
  'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen'];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', 'thousand', 'million', 'billion'];

const ORDINAL_IRREGULAR: Readonly<Record<string, string>> = {
  one: 'first', two: 'second', three: 'third', five: 'fifth', eight: 'eighth', nine: 'ninth', twelve: 'twelfth',
};

function underThousand(n: number): string[] {
  const out: string[] = [];
  if (n >= 100) { out.push(ONES[Math.floor(n / 100)], 'hundred'); n %= 100; }
  if (n >= 20) { out.push(TENS[Math.floor(n / 10)]); n %= 10; if (n > 0) out.push(ONES[n]); }
  else if (n > 0) out.push(ONES[n]);
  return out;
}

/** A non-negative integer as cardinal words. */
export function cardinalWords(n: number): string[] {
  if (!Number.isSafeInteger(n) || n < 0 || n >= 1e12) throw new RangeError(`number out of range: ${n}`);
  if (n === 0) return ['zero'];
  const out: string[] = [];
  for (let scale = SCALES.length - 1; scale >= 0; scale--) {
    const unit = 1000 ** scale;
    const chunk = Math.floor(n / unit) % 1000;
    if (chunk > 0) out.push(...underThousand(chunk), ...(scale > 0 ? [SCALES[scale]] : []));
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

function digitsWords(digits: string): string[] {
  return [...digits].map((d) => ONES[Number(d)]);
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

/** Spoken words of a number token matched by NUMBER_TOKEN; null if the shape is not handled. */
export function numberToWords(token: string): string[] | null {
  const m = /^([$£€]?)(\d+(?:,\d{3})*)(?:\.(\d+)|:(\d{2}))?(st|nd|rd|th|s|%)?$/i.exec(token);
  if (!m) return null;
  const [, sign, intText, decimals, minutes, suffix] = m;
  const plain = intText.replace(/,/g, '');
  if (plain.length > 12) return digitsWords(plain);
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
