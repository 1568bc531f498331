/**
 * The analysed Mandarin reference text: what the scoring engine, the presenters and the
 * synthesiser read. Field names that appear in the spec's `words[]` item (pinyin, rawpinyin,
 * symbolpinyin, charType, tone, normalized_syllables, word_parts) keep the spec's spelling so
 * presenters can copy them.
 */
import type { Genre } from './genre.js';
import type { Sentence, TextSpan } from './clauses.js';

export interface NormalizedSyllable {
  /** Expected realisation with numeric tone after sandhi, e.g. "ni2" for 你 in 你好. */
  syllables: string;
  /** Toneless pinyin, e.g. "ni". */
  pinyin: string;
  /** Citation tone 1–4, 5 = neutral. */
  tone: number;
  /** Tone expected after sandhi (equals `tone` when no sandhi applies). */
  tone_sandhi: number;
}

export interface WordPart {
  /** The original text this token comes from ("3.5%" for each of 百分之三点五). */
  part: string;
  charType: number;
  /** Code-point offsets into the original reference text, end exclusive. */
  beginIndex: number;
  endIndex: number;
}

export interface TextTokenInfo {
  /** Position in `tokens`. */
  index: number;
  /** Normalised text: one character for charType 0. */
  text: string;
  charType: number;
  beginIndex: number;
  endIndex: number;
  clause: number;
  sentence: number;
  word_parts: WordPart[];
}

export interface MandarinChar extends TextTokenInfo {
  /** Position among the readable characters (0-based): the unit of alignment and scoring. */
  charIndex: number;
  /** Index of the lexical word (ICU segmentation) the character belongs to. */
  word: number;
  /** Toneless pinyin, ASCII with v for ü (lv, nve). */
  pinyin: string;
  /** Numeric-tone pinyin, tone 5 = neutral (hang2, men5). */
  rawpinyin: string;
  /** Tone-mark pinyin (háng, lǜ, men). */
  symbolpinyin: string;
  /** Citation tone label toneN (tone5 = neutral). */
  tone: string;
  toneNumber: number;
  /** Tone expected after sandhi. */
  sandhiTone: number;
  normalized_syllables: NormalizedSyllable[];
  /** Acoustic-model phones of the syllable (initial then final, e.g. [zh, uang]). */
  phones: readonly string[];
  /** True when the reading came from refPinyin rather than automatic annotation. */
  fromRefPinyin: boolean;
}

export interface MandarinText {
  /** The reference text as sent. */
  reference: string;
  /** Every token in order: readable characters (MandarinChar) and the rest. */
  tokens: (MandarinChar | TextTokenInfo)[];
  /** Only the readable characters, in order (charIndex = position here). */
  chars: MandarinChar[];
  clauses: TextSpan[];
  sentences: Sentence[];
  /** True when the text has at least three clauses: only then is reading rhythm rated. */
  rhythmRated: boolean;
  genre: Genre;
  genreSource: 'config' | 'detected';
}

export function isMandarinChar(t: MandarinChar | TextTokenInfo): t is MandarinChar {
  return (t as MandarinChar).charIndex !== undefined;
}
