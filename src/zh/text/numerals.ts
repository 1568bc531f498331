/**
 * Reading Arabic numerals aloud in Mandarin (pure string functions).
 * Rules (docs/mandarin-text.md has the full list and examples):
 *  - cardinals with the 万/亿 four-digit grouping, one 零 for each run of internal zeros,
 *    and 十 rather than 一十 at the start (12 → 十二, 112 → 一百一十二, 1005 → 一千零五);
 *  - 两 for the leading 2 of a number before 千/万/亿 (2000 → 两千, 20000 → 两万,
 *    22000 → 两万二千, but 12000 → 一万二千) and for a bare 2 before a measure word
 *    (2个 → 两个; see twoBeforeMeasure);
 *  - decimals read the fraction digit by digit (3.14 → 三点一四);
 *  - digit-by-digit reading (0 → 零) for years, telephone-like numbers and codes;
 *  - in text (normalize.ts): clock times (10:30 → 十点三十分), fractions (1/2 → 二分之一),
 *    ranges (3-5 → 三到五) and ratios (3:2 → 三比二).
 */

const DIGITS = '零一二三四五六七八九';
const SMALL_UNITS = ['', '十', '百', '千'];
const BIG_UNITS = ['', '万', '亿', '万亿'];

/** Digit-by-digit reading: 2024 → 二零二四. */
export function readDigits(digits: string): string {
  let out = '';
  for (const d of digits) out += DIGITS[Number(d)];
  return out;
}

/** Reads 1..9999 (no leading zeros assumed) with internal 零. */
function readGroup(n: number, twoAsLiang: boolean): string {
  let out = '';
  let zero = false;
  for (let p = 3; p >= 0; p--) {
    const d = Math.floor(n / 10 ** p) % 10;
    if (d === 0) {
      if (out !== '') zero = true;
      continue;
    }
    if (zero) out += '零';
    zero = false;
    const digit = d === 2 && twoAsLiang && out === '' && p === 3 ? '两' : DIGITS[d];
    out += digit + SMALL_UNITS[p];
  }
  return out;
}

/**
 * Cardinal reading of a non-negative integer given as a digit string (at most 16 digits;
 * longer strings are read digit by digit).
 */
export function readCardinal(digits: string): string {
  const trimmed = digits.replace(/^0+(?=\d)/, '');
  if (trimmed.length > 16) return readDigits(digits);
  if (/^0+$/.test(trimmed)) return '零';
  const groups: number[] = [];
  for (let end = trimmed.length; end > 0; end -= 4) groups.unshift(Number(trimmed.slice(Math.max(0, end - 4), end)));
  let out = '';
  let pendingZero = false;
  groups.forEach((g, k) => {
    const unit = BIG_UNITS[groups.length - 1 - k];
    if (g === 0) {
      if (out !== '') pendingZero = true;
      return;
    }
    if (out !== '' && (pendingZero || g < 1000)) out += '零';
    pendingZero = false;
    // 2 alone before 万/亿 reads 两 (两万, 两亿); 2 in the thousands place reads 两 (两千).
    const part = g === 2 && unit !== '' && k === 0 ? '两' : readGroup(g, k === 0);
    out += part + unit;
  });
  // 一十… at the very start is read 十… (10–19, 10万–19万 …).
  return out.startsWith('一十') ? out.slice(1) : out;
}

/** Decimal reading: integer part as a cardinal, 点, fraction digit by digit. */
export function readDecimal(intPart: string, fraction: string): string {
  return readCardinal(intPart) + '点' + readDigits(fraction);
}

/**
 * Measure words after which a bare 2 is read 两 (2个 → 两个). A closed list of the common
 * ones; 二 stays for ordinals and counting (第2 → 第二, 2号 → 二号, 2月 → 二月).
 */
const MEASURE_WORDS = new Set(
  Array.from('个位本只张条件天次种岁斤块辆台家名口双对把支根头匹棵座所间层页篇首句段行遍趟周年小分秒'),
);

export function twoBeforeMeasure(next: string | undefined): boolean {
  return next !== undefined && MEASURE_WORDS.has(next);
}
