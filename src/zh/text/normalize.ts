/**
 * Reference-text normalisation: classifies every character, turns full-width letters, digits
 * and symbols into their ASCII forms, reads Arabic numerals as Chinese numerals, and keeps
 * for every resulting token the span of the original text it came from.
 *
 * Offsets (`begin`, `end`) count Unicode code points of the original reference text, end
 * exclusive, so that clients in any language can slice the text they sent.
 */
import { readCardinal, readDecimal, readDigits, twoBeforeMeasure } from './numerals.js';

/**
 * charType values (the spec fixes 0 and 1 and leaves the others to the implementation):
 *  0 a Chinese character that is read and scored (also numerals read from Arabic digits);
 *  1 punctuation, never scored (Unicode category P);
 *  2 Latin letters, one token per run ("LOGO", "iPhone"); not scored;
 *  3 Arabic digits left unread (next to Latin letters, like "5G", "MP3"); not scored;
 *  4 any other symbol or character that is not read (Unicode S, letters of other scripts,
 *    circled numbers, Chinese characters without a known reading); not scored.
 */
export const CHAR_TYPE = { HANZI: 0, PUNCTUATION: 1, LATIN: 2, DIGITS: 3, OTHER: 4 } as const;

export interface TextToken {
  /** Normalised text: one Chinese character for charType 0, else the (half-width) original. */
  text: string;
  charType: number;
  /** Original substring the token comes from (for numerals: the whole number, e.g. "3.5%"). */
  source: string;
  begin: number;
  end: number;
}

export interface NormalizedText {
  tokens: TextToken[];
  /** Code-point offsets of the line breaks in the original text (for genre and clauses). */
  lineBreaks: number[];
}

const HAN = /^[\p{Script=Han}〇]$/u;
const LATIN = /^\p{Script=Latin}$/u;
const PUNCT = /^\p{P}$/u;
const SPACE = /^\s$/u;

/**
 * Full-width ASCII (U+FF01–FF5E) and the ideographic space to ASCII. Used for letters,
 * digits and symbols; punctuation tokens keep the character that was written (，stays ，).
 */
export function toHalfWidth(ch: string): string {
  const c = ch.codePointAt(0)!;
  if (c >= 0xff01 && c <= 0xff5e) return String.fromCodePoint(c - 0xfee0);
  if (c === 0x3000) return ' ';
  return ch;
}

const NUMBER = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(%)?/;
const TIME = /^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?![\d:])/;
const FRACTION = /^(\d{1,3})\/(\d{1,3})(?![\d/])/;
const RANGE_MARKS = new Set(['-', '~', '—', '–']);

interface NumberReading {
  /** Chinese characters to read, or null to leave the digits unread (charType 3). */
  chars: string | null;
  length: number;
}

/** Unit characters after which a 3–4 digit number is a route, room or code, read digit by digit. */
const CODE_SUFFIX = new Set(Array.from('路室房'));

/**
 * The chain of digit groups joined by hyphens around position i (010-62345678, 3-5):
 * a telephone-like chain (7+ digits in all, or a group with a leading 0) is read digit by
 * digit; a chain of exactly two short groups is a range, its hyphen read 到.
 */
function hyphenChain(half: string[], i: number): 'phone' | 'range' | null {
  let a = i;
  while (a > 0 && (/\d/.test(half[a - 1]) || (half[a - 1] === '-' && /\d/.test(half[a - 2] ?? '')))) a--;
  let b = i;
  while (b < half.length && (/\d/.test(half[b]) || (half[b] === '-' && /\d/.test(half[b + 1] ?? '')))) b++;
  const groups = half.slice(a, b).join('').split('-');
  if (groups.length < 2) return null;
  const digits = groups.reduce((n, g) => n + g.length, 0);
  if (digits >= 7 || groups.some((g) => g.length > 1 && g.startsWith('0'))) return 'phone';
  return groups.length === 2 ? 'range' : 'phone';
}

/** Minutes or seconds of a clock time: 05 → 零五, 30 → 三十. */
function clockPart(mm: string): string {
  return mm.startsWith('0') ? '零' + readDigits(mm.slice(1)) : readCardinal(mm);
}

function readTime(h: string, m: string, sec: string | undefined): string {
  let out = (h.replace(/^0(?=\d)/, '') === '2' ? '两' : readCardinal(h)) + '点';
  if (m !== '00' || sec) out += clockPart(m) + '分';
  if (sec) out += clockPart(sec) + '秒';
  return out;
}

function readNumberAt(half: string[], i: number): NumberReading {
  const rest = half.slice(i, i + 40).join('');
  const prev = half[i - 1];
  const time = TIME.exec(rest);
  if (time && prev !== ':') return { chars: readTime(time[1], time[2], time[3]), length: time[0].length };
  const frac = FRACTION.exec(rest);
  if (frac && prev !== '/') return { chars: readCardinal(frac[2]) + '分之' + readCardinal(frac[1]), length: frac[0].length };
  const m = NUMBER.exec(rest)!;
  const [whole, intRaw, fraction, percent] = m;
  const length = Array.from(whole).length;
  const next = half[i + length];
  if ((prev && /[A-Za-z]/.test(prev)) || (next && /[A-Za-z]/.test(next))) return { chars: null, length };
  const intPart = intRaw.replace(/,/g, '');
  const grouped = intRaw.includes(',');
  let chars: string;
  if (!fraction && !percent && !grouped && (
    (intPart.length === 4 && next === '年') ||
    intPart.length >= 7 ||
    (intPart.length >= 2 && intPart.startsWith('0')) ||
    hyphenChain(half, i) === 'phone' ||
    (intPart.length >= 3 && next !== undefined && CODE_SUFFIX.has(next))
  )) {
    chars = readDigits(intPart);
  } else if (fraction) {
    chars = readDecimal(intPart, fraction);
  } else if (intPart === '2' && !percent && prev !== '第' && twoBeforeMeasure(next)) {
    chars = '两';
  } else {
    chars = readCardinal(intPart);
  }
  if (percent) chars = '百分之' + chars;
  return { chars, length };
}

/**
 * What a mark between two read numbers is read as: 到 for a range (3-5天, 10~20, 20%-30%),
 * 比 for a ratio or score (3:2; clock times were taken whole before), null otherwise.
 */
function markBetweenNumbers(half: string[], i: number, tokens: TextToken[]): string | null {
  const mark = half[i];
  if (!/\d/.test(half[i + 1] ?? '')) return null;
  const last = tokens[tokens.length - 1];
  if (!last || last.end !== i || last.charType !== CHAR_TYPE.HANZI || !/[\d０-９]/.test(last.source)) return null;
  if (mark === ':') return '比';
  if (!RANGE_MARKS.has(mark)) return null;
  return mark !== '-' || /[%％]$/.test(last.source) || hyphenChain(half, i + 1) === 'range' ? '到' : null;
}

/** Splits the reference text into tokens (see CHAR_TYPE) with their original spans. */
export function normalizeText(ref: string): NormalizedText {
  const cps = Array.from(ref);
  const half = cps.map(toHalfWidth);
  const tokens: TextToken[] = [];
  const lineBreaks: number[] = [];
  let i = 0;
  const push = (text: string, charType: number, begin: number, end: number) =>
    tokens.push({ text, charType, source: cps.slice(begin, end).join(''), begin, end });
  while (i < cps.length) {
    const ch = cps[i];
    const h = half[i];
    if (ch === '\n' || ch === '\r') {
      if (!(ch === '\n' && cps[i - 1] === '\r')) lineBreaks.push(i);
      i++;
    } else if (SPACE.test(h)) {
      i++;
    } else if (HAN.test(ch)) {
      push(ch, CHAR_TYPE.HANZI, i, i + 1);
      i++;
    } else if (/\d/.test(h)) {
      const { chars, length } = readNumberAt(half, i);
      if (chars === null) push(half.slice(i, i + length).join(''), CHAR_TYPE.DIGITS, i, i + length);
      else for (const c of chars) push(c, CHAR_TYPE.HANZI, i, i + length);
      i += length;
    } else if (/[A-Za-z]/.test(h) || LATIN.test(h)) {
      let j = i + 1;
      while (j < cps.length && (LATIN.test(half[j]) || (half[j] === "'" && LATIN.test(half[j + 1] ?? '')))) j++;
      push(half.slice(i, j).join(''), CHAR_TYPE.LATIN, i, j);
      i = j;
    } else if (markBetweenNumbers(half, i, tokens) !== null) {
      push(markBetweenNumbers(half, i, tokens)!, CHAR_TYPE.HANZI, i, i + 1);
      i++;
    } else if (PUNCT.test(ch)) {
      push(ch, CHAR_TYPE.PUNCTUATION, i, i + 1);
      i++;
    } else {
      push(h, CHAR_TYPE.OTHER, i, i + 1);
      i++;
    }
  }
  return { tokens, lineBreaks };
}
