/**
 * One entry point for the Mandarin text layer: normalisation, tokens with charType, pinyin in
 * context (optionally from refPinyin), tone sandhi, model phones, clauses, sentences and genre.
 * Pure apart from the pinyin-pro and ICU dictionaries; no I/O.
 */
import { invalid } from '../../errors.js';
import { splitClauses } from './clauses.js';
import { detectGenre, GENRES, type Genre } from './genre.js';
import { CHAR_TYPE, normalizeText, type TextToken } from './normalize.js';
import { contextPinyin, parseRefPinyin, type Reading } from './pinyin.js';
import { syllablePhones } from './phones.js';
import { applySandhi } from './sandhi.js';
import { toneMarked } from './syllables.js';
import type { MandarinChar, MandarinText, TextTokenInfo } from './types.js';

export interface AnalyzeOptions {
  /** Space-separated numeric-tone pinyin, one syllable per readable character. */
  refPinyin?: string | null;
  /** Overrides genre detection. */
  genre?: Genre | null;
}

/** Stand-in for unread tokens in the string given to the segmenters, so words never span them. */
const SEPARATOR = '|';
const wordSegmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/** Lexical word index per position of `chars` (ICU dictionary segmentation). */
function wordIndices(chars: string[]): number[] {
  const out: number[] = [];
  let word = 0;
  for (const s of wordSegmenter.segment(chars.join(''))) {
    for (let k = Array.from(s.segment).length; k > 0; k--) out.push(word);
    word++;
  }
  return out;
}

function readingsOf(tokens: TextToken[], refPinyin: string | null | undefined): { readings: (Reading | null)[]; fromRef: boolean } {
  const chars = tokens.map((t) => (t.charType === CHAR_TYPE.HANZI ? t.text : SEPARATOR));
  const { readings } = contextPinyin(chars);
  // A Chinese character without any known reading is not read (charType 4) unless refPinyin gives one.
  if (!refPinyin) {
    tokens.forEach((t, k) => {
      if (t.charType === CHAR_TYPE.HANZI && !readings[k]) t.charType = CHAR_TYPE.OTHER;
    });
    return { readings, fromRef: false };
  }
  const ref = parseRefPinyin(refPinyin);
  const slots = tokens.flatMap((t, k) => (t.charType === CHAR_TYPE.HANZI ? [k] : []));
  if (ref.length !== slots.length) {
    throw invalid(`refPinyin has ${ref.length} syllables but the reference text has ${slots.length} readable characters`);
  }
  slots.forEach((k, n) => (readings[k] = ref[n]));
  return { readings, fromRef: true };
}

function sandhiTones(tokens: TextToken[], readings: (Reading | null)[], words: number[]): number[] {
  const out = readings.map((r) => r?.tone ?? 0);
  for (let k = 0; k < tokens.length; ) {
    if (tokens[k].charType !== CHAR_TYPE.HANZI) {
      k++;
      continue;
    }
    let j = k;
    while (j < tokens.length && tokens[j].charType === CHAR_TYPE.HANZI) j++;
    const phrase = tokens.slice(k, j).map((t, n) => ({ char: t.text, syllable: readings[k + n]!.syllable, tone: readings[k + n]!.tone, word: words[k + n] }));
    applySandhi(phrase).forEach((tone, n) => (out[k + n] = tone));
    k = j;
  }
  return out;
}

/**
 * Analyses a Mandarin reference text.
 * @throws ApiError 40001 when nothing in the text is readable, and for refPinyin problems
 *   (a syllable that is not numeric-tone pinyin, or a count different from the number of
 *   readable characters; the message gives both counts).
 * @example
 *   const t = analyzeMandarinText('你好，银行。');
 *   t.chars[0].rawpinyin;                          // 'ni3'
 *   t.chars[0].normalized_syllables[0].tone_sandhi; // 2
 */
export function analyzeMandarinText(ref: string, opts: AnalyzeOptions = {}): MandarinText {
  if (opts.genre && !GENRES.includes(opts.genre)) throw invalid(`genre must be one of ${GENRES.join(', ')}`);
  const { tokens, lineBreaks } = normalizeText(ref);
  const { readings, fromRef } = readingsOf(tokens, opts.refPinyin);
  if (!tokens.some((t) => t.charType === CHAR_TYPE.HANZI)) {
    throw invalid('referenceText has no readable Chinese characters');
  }
  const words = wordIndices(tokens.map((t) => (t.charType === CHAR_TYPE.HANZI ? t.text : SEPARATOR)));
  const sandhi = sandhiTones(tokens, readings, words);
  const { clauses, sentences } = splitClauses(ref, tokens, lineBreaks);
  const clauseOf = new Int32Array(tokens.length);
  const sentenceOf = new Int32Array(tokens.length);
  for (const c of clauses) clauseOf.fill(c.index, c.tokenStart, c.tokenEnd);
  for (const s of sentences) sentenceOf.fill(s.index, s.tokenStart, s.tokenEnd);

  const chars: MandarinChar[] = [];
  const out = tokens.map((t, k): MandarinChar | TextTokenInfo => {
    const base: TextTokenInfo = {
      index: k, text: t.text, charType: t.charType, beginIndex: t.begin, endIndex: t.end,
      clause: clauseOf[k], sentence: sentenceOf[k],
      word_parts: [{ part: t.source, charType: t.charType, beginIndex: t.begin, endIndex: t.end }],
    };
    const r = readings[k];
    if (t.charType !== CHAR_TYPE.HANZI || !r) return base;
    // Listed field by field: an object spread of `base` here cost 15 µs per character.
    const ch: MandarinChar = {
      index: k, text: t.text, charType: t.charType, beginIndex: t.begin, endIndex: t.end,
      clause: clauseOf[k], sentence: sentenceOf[k], word_parts: base.word_parts,
      charIndex: chars.length,
      word: words[k],
      pinyin: r.syllable,
      rawpinyin: `${r.syllable}${r.tone}`,
      symbolpinyin: toneMarked(r.syllable, r.tone),
      tone: `tone${r.tone}`,
      toneNumber: r.tone,
      sandhiTone: sandhi[k],
      normalized_syllables: [{ syllables: `${r.syllable}${sandhi[k]}`, pinyin: r.syllable, tone: r.tone, tone_sandhi: sandhi[k] }],
      phones: syllablePhones(r.syllable),
      fromRefPinyin: fromRef,
    };
    chars.push(ch);
    return ch;
  });
  const genre = opts.genre ?? detectGenre(ref, tokens);
  return { reference: ref, tokens: out, chars, clauses, sentences, rhythmRated: clauses.length >= 3, genre, genreSource: opts.genre ? 'config' : 'detected' };
}
