/**
 * The Mandarin reference text as the engine needs it: read characters with their expected
 * syllables (citation tone and sandhi realisation), punctuation and non-read characters kept in
 * place, clauses and sentences. A small self-contained analysis so the engine does not wait for
 * the full text layer (src/zh/text); it follows the same rules and can be swapped for it.
 *
 * Rules (docs/mandarin-engine.md, "Text"):
 * - Full-width digits and Latin letters fold to half width (punctuation keeps its form), U+3000 to a space.
 * - Runs of Arabic digits are read as Chinese numerals: up to 4 digits without a leading zero as a
 *   number (2026 → 二千零二十六), longer runs or leading zeros digit by digit; every numeral
 *   character keeps the source index of its digit run.
 * - charType: 0 Han character (read and scored); 1 punctuation (kept, never scored);
 *   2 Latin letter (kept, not scored: the Mandarin model has no letter names);
 *   3 other symbol or space (kept, not scored).
 * - Pinyin comes from pinyin-pro on the whole text, so polyphonic characters are read in context;
 *   `refPinyin` (space-separated numeric-tone pinyin, one per Han character) overrides it.
 */
import { pinyin } from 'pinyin-pro';
import { invalid } from '../../errors.js';
import { applySandhi } from './sandhi.js';

export type CharType = 0 | 1 | 2 | 3;

export interface ZhToken {
  /** Text as shown (numerals: the Chinese numeral read). */
  text: string;
  charType: CharType;
  /** Index (code points) into the original reference text; digit runs share their run's range. */
  beginIndex: number;
  endIndex: number;
  /** Toneless pinyin, ü written as v (the model's convention), '' when not read. */
  syllable: string;
  /** Citation tone 1–4, 5 for the neutral tone, 0 when not read. */
  tone: number;
  /** Expected realised tone after sandhi (third-tone runs, 一, 不). */
  sandhiTone: number;
  clause: number;
  sentence: number;
}

export interface ZhText {
  tokens: ZhToken[];
  /** Indices into `tokens` of the read (charType 0) characters, in order. */
  read: number[];
  clauseCount: number;
  sentences: { index: number; text: string; tokens: number[] }[];
}

const PUNCT = /[\p{P}]/u;
const HAN = /\p{Script=Han}/u;
const SENTENCE_END = new Set(['。', '！', '？', '!', '?', '；', ';', '…', '\n']);
const DIGITS = '零一二三四五六七八九';

function foldWidth(text: string): string {
  return [...text]
    .map((c) => {
      const cp = c.codePointAt(0)!;
      const alnum = (cp >= 0xff10 && cp <= 0xff19) || (cp >= 0xff21 && cp <= 0xff3a) || (cp >= 0xff41 && cp <= 0xff5a);
      if (alnum) return String.fromCodePoint(cp - 0xfee0);
      return cp === 0x3000 ? ' ' : c;
    })
    .join('');
}

/** Chinese reading of a digit run (see the header for the rule). */
export function readDigits(run: string): string {
  if (run.length > 4 || (run.length > 1 && run[0] === '0')) return [...run].map((d) => DIGITS[+d]).join('');
  const n = Number(run);
  if (n === 0) return '零';
  const units = ['', '十', '百', '千'];
  const ds = [...run].map(Number);
  let out = '';
  let zero = false;
  ds.forEach((d, i) => {
    const place = ds.length - 1 - i;
    if (d === 0) {
      zero = out !== '';
      return;
    }
    if (zero) out += '零';
    zero = false;
    // 12 → 十二 (no leading 一), 2000 → 两千 (两 before 千 in everyday reading).
    out += d === 1 && place === 1 && out === '' ? '' : d === 2 && place === 3 ? '两' : DIGITS[d];
    out += units[place];
  });
  return out;
}

interface RawChar {
  text: string;
  beginIndex: number;
  endIndex: number;
}

/** Splits into characters, expanding digit runs into numeral characters. */
function scan(text: string): RawChar[] {
  const cps = [...text];
  const out: RawChar[] = [];
  for (let i = 0; i < cps.length; ) {
    if (/[0-9]/.test(cps[i])) {
      let j = i;
      while (j < cps.length && /[0-9]/.test(cps[j])) j++;
      for (const ch of readDigits(cps.slice(i, j).join(''))) out.push({ text: ch, beginIndex: i, endIndex: j });
      i = j;
      continue;
    }
    out.push({ text: cps[i], beginIndex: i, endIndex: i + 1 });
    i++;
  }
  return out;
}

/** Tone-marked pinyin to toneless with ü as v: lǜ → lv, zhōng → zhong. */
export function toneless(marked: string): string {
  return marked
    .replace(/[üǖǘǚǜ]/g, 'v')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
}

function charTypeOf(c: string): CharType {
  if (HAN.test(c)) return 0;
  if (PUNCT.test(c)) return 1;
  if (/[A-Za-z]/.test(c)) return 2;
  return 3;
}

/** Parses numeric-tone pinyin such as `lv4`, `nü3`, `de5`, `ma0` into syllable and tone. */
export function parseNumericPinyin(p: string): { syllable: string; tone: number } | null {
  const m = /^([a-zü:]+?)([0-5])?$/i.exec(p.trim().toLowerCase());
  if (!m) return null;
  const syllable = m[1].replace(/ü|u:/g, 'v');
  const t = m[2] === undefined ? 5 : Number(m[2]);
  return { syllable, tone: t === 0 ? 5 : t };
}

export interface AnalyzeOptions {
  refPinyin?: string | null;
}

/** Analyses a Mandarin reference text. Throws 40001 for a refPinyin that does not fit. */
export function analyzeZhText(reference: string, opts: AnalyzeOptions = {}): ZhText {
  const chars = scan(foldWidth(reference.normalize('NFC')));
  const hanString = chars.map((c) => c.text).join('');
  const py = pinyin(hanString, { type: 'all', toneSandhi: false, v: true });
  const tokens: ZhToken[] = chars.map((c, i) => {
    const charType = charTypeOf(c.text);
    const info = py[i];
    const read = charType === 0 && info && info.isZh && info.pinyin !== '';
    const syllable = read ? toneless(info.pinyin) : '';
    const tone = read ? (info.num === 0 ? 5 : info.num) : 0;
    return { ...c, charType: read ? 0 : charType === 0 ? 3 : charType, syllable, tone, sandhiTone: tone, clause: 0, sentence: 0 };
  });
  const read = tokens.flatMap((t, i) => (t.charType === 0 ? [i] : []));
  if (opts.refPinyin) overrideWithRefPinyin(tokens, read, opts.refPinyin);
  const { clauseCount, sentences } = segment(tokens);
  applySandhi(tokens, read);
  return { tokens, read, clauseCount, sentences };
}

function overrideWithRefPinyin(tokens: ZhToken[], read: number[], refPinyin: string): void {
  const items = refPinyin.trim().split(/\s+/).filter((s) => s !== '');
  if (items.length !== read.length) {
    throw invalid(`refPinyin has ${items.length} syllables but referenceText has ${read.length} characters to read`);
  }
  items.forEach((item, k) => {
    const parsed = parseNumericPinyin(item);
    if (!parsed) throw invalid(`refPinyin item ${k + 1} ("${item}") is not numeric-tone pinyin`);
    const t = tokens[read[k]];
    t.syllable = parsed.syllable;
    t.tone = parsed.tone;
    t.sandhiTone = parsed.tone;
  });
}

/** Clause and sentence numbers: clauses end at any punctuation, sentences at final marks. */
function segment(tokens: ZhToken[]): { clauseCount: number; sentences: ZhText['sentences'] } {
  let clause = 0;
  let sentence = 0;
  let clauseHasRead = false;
  let current: number[] = [];
  const sentences: ZhText['sentences'] = [];
  const close = () => {
    if (current.some((i) => tokens[i].charType === 0)) {
      sentences.push({ index: sentences.length, text: current.map((i) => tokens[i].text).join('').trim(), tokens: current });
      sentence++;
    }
    current = [];
  };
  tokens.forEach((t, i) => {
    t.clause = clause;
    t.sentence = sentence;
    current.push(i);
    if (t.charType === 0) clauseHasRead = true;
    const boundary = t.charType === 1 || t.text === '\n';
    if (boundary && clauseHasRead) {
      clause++;
      clauseHasRead = false;
    }
    if (SENTENCE_END.has(t.text)) close();
  });
  close();
  return { clauseCount: clause + (clauseHasRead ? 1 : 0), sentences };
}
