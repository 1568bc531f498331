/**
 * Mandarin text to the syllables that are actually spoken, through the project's Mandarin text
 * layer (src/zh/text: normalisation and numeral reading, readings in context or from a
 * per-character pinyin override, word-aware tone sandhi, clauses). Using the same analysis as
 * the evaluation keeps standard audio consistent with the readings it was scored against.
 */
import { ApiError, invalid } from '../../errors.js';
import { analyzeMandarinText, CHAR_TYPE, isMandarinChar, type Genre as TextGenre } from '../../zh/text/index.js';

export interface Syllable {
  kind: 'syllable';
  /** The character it reads (a numeral reading's character for digits). */
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
  /** 'minor' at clause ends (commas and the like), 'major' at sentence ends. */
  strength: 'minor' | 'major';
}

export type ZhToken = Syllable | Pause;

export interface ZhReading {
  tokens: ZhToken[];
  /** Text that is not read (Latin letters, symbols), for a warning. */
  skipped: string[];
  /** Genre detected by the text layer. */
  genre: TextGenre;
}

/**
 * Analyses Mandarin text, optionally with one numeric-tone syllable per readable character.
 * @throws ApiError 40001 naming `pinyin` when the override does not fit the text, or when the
 *   text has nothing readable.
 */
export function toZhTokens(text: string, pinyin?: string): ZhReading {
  let analysed;
  try {
    analysed = analyzeMandarinText(text, { refPinyin: pinyin ?? null });
  } catch (err) {
    if (err instanceof ApiError) throw invalid(err.message.replace('refPinyin', 'pinyin').replace('reference text', 'text').replace('referenceText', 'text'));
    throw err;
  }
  const tokens: ZhToken[] = [];
  const skipped: string[] = [];
  for (const clause of analysed.clauses) {
    for (let k = clause.tokenStart; k < clause.tokenEnd; k++) {
      const t = analysed.tokens[k];
      if (isMandarinChar(t)) {
        tokens.push({ kind: 'syllable', char: t.text, base: t.pinyin, lexicalTone: t.toneNumber, tone: t.sandhiTone });
      } else if (t.charType !== CHAR_TYPE.PUNCTUATION && t.text.trim() !== '') {
        skipped.push(t.text);
      }
    }
    if (clause.pauseAfter !== 'end') tokens.push({ kind: 'pause', strength: clause.pauseAfter === 'sentence' ? 'major' : 'minor' });
  }
  return { tokens, skipped, genre: analysed.genre };
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
