/**
 * Mandarin text to the syllables that are actually spoken: readings by context (pinyin-pro,
 * which resolves polyphones such as 银行/长大/重复 from its word list), the request's
 * per-character `pinyin` override, then tone sandhi, then phrase breaks at punctuation.
 *
 * Sandhi rules (Chao 1968, "A Grammar of Spoken Chinese", §2.2; Duanmu 2007, ch. 11):
 * - 一 yi1: tone 2 before a tone-4 syllable, tone 4 before tones 1–3; stays 1 at the end of a
 *   phrase, after 第, and inside numbers (next to another numeral).
 * - 不 bu4: tone 2 before a tone-4 syllable.
 * - third tone: in a run of third tones within a phrase all but the last become tone 2
 *   (a simplification: the prosodic-word grouping of long runs is not modelled).
 * Neutral tone is written 5.
 */
import { pinyin as pinyinPro } from 'pinyin-pro';

export interface Syllable {
  kind: 'syllable';
  /** The character it reads. */
  char: string;
  /** Toneless pinyin with ü written v, e.g. "lv". */
  base: string;
  /** Lexical (citation) tone 1..5. */
  lexicalTone: number;
  /** Tone after sandhi, 1..5. */
  tone: number;
}

export interface Pause {
  kind: 'pause';
  /** 'minor' for commas and the like, 'major' for sentence ends. */
  strength: 'minor' | 'major';
}

export type ZhToken = Syllable | Pause;

const MAJOR = new Set(['。', '！', '？', '!', '?', '.', '…', '\n']);
const MINOR = new Set(['，', '、', '；', '：', ',', ';', ':', '—', '（', '）', '(', ')', '“', '”', '「', '」', '《', '》']);
const DIGITS = '零一二三四五六七八九';
const NUMERALS = new Set([...DIGITS, '十', '百', '千', '万', '亿', '两']);

/** Characters of the Han script: the units that the `pinyin` override counts. */
export function hanCount(text: string): number {
  return (text.match(/\p{Script=Han}/gu) ?? []).length;
}

/** Splits an override into tokens; each is letters (ü as v, u: or ü) plus an optional tone digit. */
export function parsePinyinOverride(pinyin: string): { base: string; tone: number }[] | string {
  const tokens = pinyin.trim().split(/\s+/).filter(Boolean);
  const out: { base: string; tone: number }[] = [];
  for (const t of tokens) {
    const m = /^([a-zü:]+?)([0-5])?$/i.exec(t.normalize('NFC'));
    if (!m) return `pinyin token "${t}" is not numeric-tone pinyin`;
    const base = m[1].toLowerCase().replace(/ü|u:/g, 'v');
    const tone = m[2] === undefined || m[2] === '0' ? 5 : Number(m[2]);
    out.push({ base, tone });
  }
  return out;
}

function splitToned(p: string): { base: string; tone: number } {
  const m = /^([a-zv]+)([0-5])?$/.exec(p);
  if (!m) return { base: p, tone: 5 };
  return { base: m[1], tone: !m[2] || m[2] === '0' ? 5 : Number(m[2]) };
}

/**
 * Tokenises Mandarin text. Digits are read digit by digit; other characters that are neither
 * Han nor punctuation are skipped and reported in `skipped`.
 * Throws an Error when `override` does not have one token per Han character (callers validate
 * first; see validateSynthesisRequest).
 */
export function toZhTokens(text: string, override?: string): { tokens: ZhToken[]; skipped: string[] } {
  const normalised = text.replace(/[0-9]/g, (d) => DIGITS[Number(d)]);
  const items = pinyinPro(normalised, { type: 'all', toneType: 'num', toneSandhi: false, v: true });
  const forced = override ? parsePinyinOverride(override) : undefined;
  if (typeof forced === 'string') throw new Error(forced);
  if (forced && forced.length !== hanCount(normalised)) throw new Error('pinyin count does not match the characters');
  const tokens: ZhToken[] = [];
  const skipped: string[] = [];
  let h = 0;
  for (const it of items) {
    const ch = it.origin;
    if (/\p{Script=Han}/u.test(ch)) {
      const r = forced ? forced[h] : splitToned(it.pinyin);
      h++;
      tokens.push({ kind: 'syllable', char: ch, base: r.base, lexicalTone: r.tone, tone: r.tone });
    } else if (MAJOR.has(ch)) tokens.push({ kind: 'pause', strength: 'major' });
    else if (MINOR.has(ch)) tokens.push({ kind: 'pause', strength: 'minor' });
    else if (!/\s/.test(ch)) skipped.push(ch);
  }
  applySandhi(tokens);
  return { tokens, skipped };
}

/** Rewrites `tone` in place; phrase boundaries (pauses) block sandhi. */
export function applySandhi(tokens: ZhToken[]): void {
  const next = (i: number): Syllable | null => (tokens[i + 1]?.kind === 'syllable' ? (tokens[i + 1] as Syllable) : null);
  const prev = (i: number): Syllable | null => (tokens[i - 1]?.kind === 'syllable' ? (tokens[i - 1] as Syllable) : null);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind !== 'syllable') continue;
    const n = next(i);
    if (t.char === '一' && t.lexicalTone === 1 && n) {
      const numeric = NUMERALS.has(n.char) || (prev(i) !== null && (NUMERALS.has(prev(i)!.char) || prev(i)!.char === '第'));
      if (!numeric) t.tone = n.lexicalTone === 4 ? 2 : n.lexicalTone === 5 ? 2 : 4;
    } else if (t.char === '不' && t.lexicalTone === 4 && n && n.lexicalTone === 4) {
      t.tone = 2;
    }
  }
  // Third-tone runs, right to left inside each phrase.
  for (let i = tokens.length - 1; i >= 0; i--) {
    const t = tokens[i];
    if (t.kind === 'syllable' && t.tone === 3) {
      const n = next(i);
      if (n && n.lexicalTone === 3 && n.tone !== 5) t.tone = 2;
    }
  }
}

/** Numeric-tone pinyin for eSpeak's `cmn-latn-pinyin` voice, with punctuation kept as breaks. */
export function toEspeakPinyin(tokens: ZhToken[]): string {
  const parts: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'syllable') parts.push(`${t.base}${t.tone}`);
    else parts.push(t.strength === 'major' ? '.' : ',');
  }
  return parts.join(' ').replace(/ ([.,])/g, '$1');
}
