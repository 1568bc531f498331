/**
 * The analysed English reference text. Offsets index the original string in UTF-16 code units;
 * `beginIndex` is inclusive and `endIndex` exclusive (text.slice(beginIndex, endIndex) is the
 * token), so they can fill the spec's `word_parts[]` and `asrText.alignment[].index`.
 */

export type EnglishTextKind = 'word' | 'sentence' | 'passage' | 'alpha' | 'connected';

/** What a read word is, as written. */
export type EnglishWordForm =
  | 'word' // letters only
  | 'contraction' // don't, it's, we'll, o'clock, possessive John's
  | 'hyphenated' // well-known (also read as its parts)
  | 'number' // digits, read as `spoken` words
  | 'abbreviation' // Mr., Dr., etc.
  | 'letter'; // one letter of the alpha kind

export interface WordPart {
  part: string;
  beginIndex: number;
  endIndex: number;
}

export interface EnglishWord {
  /** Position among the read words (0-based). */
  index: number;
  /** The word as written. */
  text: string;
  beginIndex: number;
  endIndex: number;
  form: EnglishWordForm;
  /**
   * Lower-case words a reader says for this token, each one a dictionary look-up key:
   * ["don't"], ["nineteen", "ninety"] for 1990, ["mister"] for Mr., ["b"] for the letter B.
   */
  spoken: string[];
  /**
   * Other readings of the token a reader may give, each accepted like `spoken`: numbers ("four
   * oh seven" and "four hundred and seven" beside "four hundred seven" for 407), abbreviations
   * (`St.` saint or street), units, state codes, Roman numerals.
   */
  otherReadings?: string[][];
  /** Pieces of a hyphenated word with their offsets; one part otherwise. */
  parts: WordPart[];
  sentenceIndex: number;
  clauseIndex: number;
  /** Punctuation written between this word and the next (",", ".", "?!"), empty when none. */
  punctuationAfter: string;
}

export interface EnglishToken {
  text: string;
  beginIndex: number;
  endIndex: number;
  /** Spec charType: 0 a read word, 1 punctuation (never scored), 2 another unread symbol. */
  charType: 0 | 1 | 2;
  /** Index into `words` for charType 0. */
  wordIndex?: number;
}

/** A run of words between clause punctuation (, ; : dashes, brackets, quotes) or sentence ends. */
export interface EnglishClause {
  index: number;
  sentenceIndex: number;
  beginIndex: number;
  endIndex: number;
  /** Words [firstWord, endWord) of the clause. */
  firstWord: number;
  endWord: number;
}

export interface EnglishSentence {
  index: number;
  text: string;
  beginIndex: number;
  endIndex: number;
  firstWord: number;
  endWord: number;
  /** Indices into the analysis's `clauses`. */
  clauseIndices: number[];
  /** Sentence-final punctuation ('.', '?', '!', '…') or '' when the text just ends. */
  terminator: string;
}

export interface EnglishTextAnalysis {
  kind: EnglishTextKind;
  text: string;
  tokens: EnglishToken[];
  words: EnglishWord[];
  sentences: EnglishSentence[];
  clauses: EnglishClause[];
}
