/**
 * The reference text as the engine reads it, taken from the Mandarin text layer
 * (src/zh/text: normalisation, numerals, charTypes, pinyin in context, refPinyin, sandhi,
 * clauses, sentences, genre) and flattened into the few fields scoring needs. Treatment of
 * non-read characters is the text layer's: punctuation (charType 1) and Latin letters, digits
 * left as written, other symbols (2–4) are kept in place and never scored.
 */
import type { Genre } from '../../evaluation/config.js';
import { analyzeMandarinText, isMandarinChar, type MandarinText } from '../text/index.js';

export interface ZhToken {
  text: string;
  charType: number;
  /** Code-point offsets into the original reference text, end exclusive. */
  beginIndex: number;
  endIndex: number;
  /** Toneless pinyin with v for ü; '' when not read. */
  syllable: string;
  /** Citation tone 1–4, 5 neutral; 0 when not read. */
  tone: number;
  /** Expected realised tone after sandhi. */
  sandhiTone: number;
  clause: number;
  sentence: number;
  /** The text layer's fields for words[] (pinyin spellings, normalized_syllables, word_parts). */
  fields: Record<string, unknown>;
}

export interface ZhText {
  tokens: ZhToken[];
  /** Indices into `tokens` of the read (charType 0) characters, in order. */
  read: number[];
  clauseCount: number;
  sentences: { index: number; text: string; tokens: number[] }[];
  genre: Genre;
  source: MandarinText;
}

/** Analyses a Mandarin reference text. Throws 40001 (no readable characters, refPinyin problems). */
export function analyzeZhText(reference: string, opts: { refPinyin?: string | null; genre?: Genre | null } = {}): ZhText {
  const m = analyzeMandarinText(reference, { refPinyin: opts.refPinyin ?? null, genre: opts.genre ?? null });
  const tokens: ZhToken[] = m.tokens.map((t) => {
    const read = isMandarinChar(t);
    return {
      text: t.text,
      charType: t.charType,
      beginIndex: t.beginIndex,
      endIndex: t.endIndex,
      syllable: read ? t.pinyin : '',
      tone: read ? t.toneNumber : 0,
      sandhiTone: read ? t.sandhiTone : 0,
      clause: t.clause,
      sentence: t.sentence,
      fields: read
        ? { pinyin: t.pinyin.replace(/v/g, 'ü'), rawpinyin: t.rawpinyin, symbolpinyin: t.symbolpinyin, tone: t.tone, normalized_syllables: t.normalized_syllables, word_parts: t.word_parts }
        : { pinyin: '', rawpinyin: '', symbolpinyin: '', tone: '', normalized_syllables: [], word_parts: t.word_parts },
    };
  });
  const read = m.chars.map((c) => c.index);
  const sentences = m.sentences.map((s) => ({ index: s.index, text: s.text, tokens: range(s.tokenStart, s.tokenEnd) }));
  return { tokens, read, clauseCount: m.clauses.filter((c) => c.readableCount > 0).length, sentences, genre: m.genre, source: m };
}

function range(a: number, b: number): number[] {
  return Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
}
