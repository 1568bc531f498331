/**
 * First pass over an English reference text: splits it into raw tokens (words, numbers,
 * abbreviations, punctuation, other symbols) with their offsets and spoken forms.
 */
import { ABBREVIATIONS, COMPASS_POINTS, DEGREES, STREET_ABBREVIATIONS, TIME_SUFFIXES, UNITS, US_STATES } from './abbreviations.js';
import { NUMBER_TOKEN, cardinalWords, fractionReadings, numberReadings, numberToWords, ordinalWords, romanValue } from './numbers.js';
import type { EnglishWordForm, WordPart } from './types.js';

export interface RawToken {
  text: string;
  beginIndex: number;
  endIndex: number;
  charType: 0 | 1 | 2;
  form?: EnglishWordForm;
  spoken?: string[];
  /** Other readings of the token (a number's, an abbreviation's), each accepted like `spoken`. */
  otherReadings?: string[][];
  parts?: WordPart[];
  /** A dash joining two numbers ("1990-1995", "10–20"): read "to" or not at all, no break in the phrasing. */
  joinsNumbers?: boolean;
}

const LATIN = '\\p{Script=Latin}\\p{M}';
const APOS = "['’]";
/** Letters with internal apostrophes (don't, o'clock), joined by hyphens (well-known). */
const WORD = new RegExp(`[${LATIN}]+(?:${APOS}[${LATIN}]+)*(?:-[${LATIN}]+(?:${APOS}[${LATIN}]+)*)*`, 'uy');
/** Dotted letter abbreviations: e.g., U.S., a.m. */
const DOTTED = /(?:[A-Za-z]\.){2,}/y;
/** A fraction of up to three digits over up to three digits, not part of a date or a path. */
const FRACTION = /(?<![\d/])\d{1,3}\/\d{1,3}(?![\d/])/y;
/** The degree sign, with its scale when one follows ("°C", "° F"). */
const DEGREE = /°(?:\s?[CF](?![\p{L}]))?/uy;
const SPACE = /\s+/y;

function stickyMatch(re: RegExp, text: string, at: number): string | null {
  re.lastIndex = at;
  const m = re.exec(text);
  return m ? m[0] : null;
}

/** Look-up form of a written word: lower case, straight apostrophe, accents removed. */
export function foldWord(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/’/g, "'").toLowerCase();
}

/** `allCaps`: the whole text is written in capitals, where a capitalised word is no sign of a code. */
function wordToken(text: string, at: number, source: string, allCaps: boolean): RawToken {
  const folded = foldWord(text);
  let end = at + text.length;
  let form: EnglishWordForm = text.includes('-') ? 'hyphenated' : /['’]/.test(text) ? 'contraction' : 'word';
  let spoken = [folded];
  let otherReadings: string[][] = [];
  const roman = romanValue(text);
  const abbr = Object.hasOwn(ABBREVIATIONS, folded) ? ABBREVIATIONS[folded] : undefined;
  const numberFollows = /^\.\s*\d/.test(source.slice(end));
  if (abbr && source[end] === '.' && (folded !== 'no' || numberFollows)) {
    end += 1;
    form = 'abbreviation';
    [spoken, ...otherReadings] = abbr.map((r) => [...r]);
  } else if (folded === 'no' && text[0] === 'N' && /^\s+\d/.test(source.slice(end))) {
    // "Flat No 204": "number", or the word as written.
    form = 'abbreviation';
    [spoken, otherReadings] = [['number'], [['no']]];
  } else if (!allCaps && /^[A-Z]{2}$/.test(text) && Object.hasOwn(US_STATES, folded)) {
    // "Renton WA" (and "Hartford CT": a state before the street word "Ct").
    otherReadings = [US_STATES[folded].split(' '), [...folded].map((c) => `${c}.`)];
  } else if (/^[A-Z]/.test(text) && STREET_ABBREVIATIONS.has(folded)) {
    form = 'abbreviation';
    spoken = [...ABBREVIATIONS[folded][0]];
  } else if (text === text.toUpperCase() && Object.hasOwn(COMPASS_POINTS, folded)) {
    form = 'abbreviation';
    [spoken, otherReadings] = [[...COMPASS_POINTS[folded]], [[COMPASS_POINTS[folded].join('')], [...folded].map((c) => `${c}.`)]];
  } else if (roman !== null) {
    // "World War II", "Henry VIII": two, second, the second; the letters stay accepted.
    const value = roman;
    form = 'number';
    spoken = cardinalWords(value);
    otherReadings = [ordinalWords(value), ['the', ...ordinalWords(value)], [...folded].map((c) => `${c}.`)];
  } else if (folded.endsWith('s') && /^['’](?![\p{L}])/u.test(source.slice(end))) {
    end += 1; // plural possessive: students'
    form = 'contraction';
    spoken = [`${folded}'`];
  }
  const parts: WordPart[] = [];
  let offset = at;
  for (const part of text.split('-')) {
    parts.push({ part, beginIndex: offset, endIndex: offset + part.length });
    offset += part.length + 1;
  }
  return { text: source.slice(at, end), beginIndex: at, endIndex: end, charType: 0, form, spoken, ...(otherReadings.length > 0 ? { otherReadings } : {}), parts };
}

function dottedToken(text: string, at: number): RawToken {
  const key = foldWord(text).replace(/\.$/, '');
  return readToken(text, at, 'abbreviation', Object.hasOwn(ABBREVIATIONS, key) ? ABBREVIATIONS[key] : [key.split('.').map((letter) => `${letter}.`)]);
}

/** A read token of one part whose readings are given, the first one its `spoken`. */
function readToken(text: string, at: number, form: EnglishWordForm, [spoken, ...otherReadings]: readonly (readonly string[])[]): RawToken {
  const parts = [{ part: text, beginIndex: at, endIndex: at + text.length }];
  const other = otherReadings.map((r) => [...r]);
  return { text, beginIndex: at, endIndex: at + text.length, charType: 0, form, spoken: [...spoken], ...(other.length > 0 ? { otherReadings: other } : {}), parts };
}

function numberToken(text: string, at: number): RawToken {
  return readToken(text, at, 'number', numberReadings(text) ?? [[...text.replace(/\D/g, '')].map((d) => numberToWords(d)![0])]);
}

function fractionToken(text: string, at: number): RawToken {
  const [numerator, denominator] = text.split('/').map(Number);
  return readToken(text, at, 'number', fractionReadings(numerator, denominator));
}

function degreeToken(text: string, at: number): RawToken {
  return readToken(text, at, 'abbreviation', DEGREES[text.replace(/\s/g, '')]);
}

function symbolToken(ch: string, at: number, source: string): RawToken {
  if (ch === '&') return readToken(ch, at, 'word', [['and']]);
  // "#1 hit": number one.
  if (ch === '#' && /\d/.test(source[at + 1] ?? '')) return readToken(ch, at, 'abbreviation', [['number'], ['hash']]);
  const charType = /\p{P}/u.test(ch) ? 1 : 2;
  return { text: ch, beginIndex: at, endIndex: at + ch.length, charType };
}

/** Splits the text into raw tokens, left to right. */
export function scanTokens(source: string): RawToken[] {
  const out: RawToken[] = [];
  const allCaps = !/\p{Ll}/u.test(source);
  let at = 0;
  while (at < source.length) {
    const space = stickyMatch(SPACE, source, at);
    if (space) { at += space.length; continue; }
    let token: RawToken;
    const dotted = stickyMatch(DOTTED, source, at);
    const fraction = dotted ? null : stickyMatch(FRACTION, source, at);
    const num = dotted || fraction ? null : stickyMatch(NUMBER_TOKEN, source, at);
    const word = dotted || fraction || num ? null : stickyMatch(WORD, source, at);
    const degree = dotted || fraction || num || word ? null : stickyMatch(DEGREE, source, at);
    if (dotted) token = dottedToken(dotted, at);
    else if (fraction) token = fractionToken(fraction, at);
    else if (num) token = numberToken(num, at);
    else if (word) token = wordToken(word, at, source, allCaps);
    else if (degree) token = degreeToken(degree, at);
    else token = symbolToken(String.fromCodePoint(source.codePointAt(at)!), at, source);
    attachTimeSuffix(out, token);
    attachUnit(out, token);
    attachRange(out, token);
    out.push(token);
    at = token.endIndex;
  }
  return out;
}

/**
 * "10:30 pm": am/pm after a time is read as the letters a.m. / p.m., and a time on the hour
 * before them is read first without "o'clock" ("nine a.m."), which stays accepted.
 */
function attachTimeSuffix(previous: RawToken[], token: RawToken): void {
  const prev = previous[previous.length - 1];
  const key = token.spoken?.length === 1 ? token.spoken[0] : '';
  if (prev?.form === 'number' && /:\d\d$/.test(prev.text) && Object.hasOwn(TIME_SUFFIXES, key)) {
    token.spoken = [TIME_SUFFIXES[key]];
    token.form = 'abbreviation';
    const onTheHour = prev.spoken ?? [];
    const bare = prev.otherReadings?.find((r) => r.join(' ') === onTheHour.slice(0, -1).join(' '));
    if (bare) {
      prev.otherReadings = [onTheHour, ...prev.otherReadings!.filter((r) => r !== bare)];
      prev.spoken = bare;
    }
  }
}

/**
 * "5 km", "1 kg", "2GB": a unit written short after a number is read as the unit, singular
 * after 1 ("one kilogram"), the letters still accepted. Not after money ("$5m" is not metres).
 * A degree sign after 1 is "degree".
 */
function attachUnit(previous: RawToken[], token: RawToken): void {
  const prev = previous[previous.length - 1];
  if (prev?.text === '1' && token.text.startsWith('°')) {
    const singular = (r: string[]) => r.map((w) => (w === 'degrees' ? 'degree' : w));
    token.spoken = singular(token.spoken ?? []);
    token.otherReadings = token.otherReadings?.map(singular);
    return;
  }
  if (prev?.form !== 'number' || /^[$£€]/.test(prev.text) || token.form !== 'word' || !Object.hasOwn(UNITS, token.text)) return;
  const [many, one] = UNITS[token.text];
  token.form = 'abbreviation';
  token.spoken = (prev.text === '1' ? one : many).split(' ');
  token.otherReadings = [[...foldWord(token.text)].map((c) => `${c}.`)];
}

/**
 * "1990-1995", "pages 10–20": a hyphen or en dash joining two numbers is read "to" (or
 * "through"), or not at all ("555-1234"). The second number also takes its readings with "to"
 * before them, and the dash is no break for the phrasing.
 */
function attachRange(previous: RawToken[], token: RawToken): void {
  const dash = previous[previous.length - 1];
  const first = previous[previous.length - 2];
  if (token.form !== 'number' || first?.form !== 'number' || !dash || !/^[-–]$/.test(dash.text)) return;
  if (dash.beginIndex !== first.endIndex || token.beginIndex !== dash.endIndex || !token.spoken) return;
  dash.joinsNumbers = true;
  const own = [token.spoken, ...(token.otherReadings ?? [])];
  token.otherReadings = [...(token.otherReadings ?? []), ...own.map((r) => ['to', ...r]), ['through', ...token.spoken]];
}
