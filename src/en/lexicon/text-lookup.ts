/**
 * Batch look-up for an analysed reference text: every read word gets its accepted
 * pronunciations (numbers and abbreviations through their spoken words, letters of the alpha
 * kind through their names), whether it is a function word, and whether the boundary after it
 * is a linking position (never across punctuation, where a reader may pause).
 */
import type { EnglishTextAnalysis, EnglishTextKind, EnglishWord } from '../text/types.js';
import { joinPronunciations, type EnglishDialect, type EnglishLexicon, type LookupOptions } from './lexicon.js';
import { isLinkable } from './linking.js';
import { addUnique, type Pronunciation } from './phones.js';
import { isFunctionWord } from './weak-forms.js';

export interface WordEntry {
  word: EnglishWord;
  /** Every accepted pronunciation, the canonical (first dictionary) one first. */
  prons: Pronunciation[];
  /** Some spoken word of the token came from letter-to-sound, not the dictionary. */
  oov: boolean;
  functionWord: boolean;
  /** The boundary to the next word is a linking position (spec `linkable`). */
  linkable: boolean;
}

export interface TextLookupOptions {
  dialect?: EnglishDialect;
  /** Defaults to true for sentence, passage and connected kinds, false for word and alpha. */
  weakForms?: boolean;
}

function defaultWeakForms(kind: EnglishTextKind): boolean {
  return kind === 'sentence' || kind === 'passage' || kind === 'connected';
}

/** An unknown word written in capitals (2-6 letters, optional plural s) may be read letter by letter. */
const ACRONYM = /^[A-Z]{2,6}s?$/;

/** Letter names joined ("KXYZ" → K EY W EH K S W AY Z IY), first; the letter-to-sound reading stays accepted. */
function spelledOut(lexicon: EnglishLexicon, text: string, prons: Pronunciation[], dialect: EnglishDialect): Pronunciation[] {
  const letters = text.replace(/s$/, '').toLowerCase().split('');
  const spelled = joinPronunciations(letters.map((c) => lexicon.lookupWord(`${c}.`, { dialect })));
  const plural = text.endsWith('s') ? joinPronunciations([spelled, [{ phones: ['Z'], stress: [], source: 'compound' }]]) : spelled;
  return addUnique([...plural], prons);
}

/**
 * The first reading's pronunciations, then every other reading's, each marked with its words.
 * An other reading is one pronunciation, its words' dictionary-first forms joined: a number has
 * up to a dozen readings, and every alternative of every slot is searched at every frame of the
 * word pass.
 */
function withOtherReadings(lexicon: EnglishLexicon, word: EnglishWord, first: Pronunciation[], opts: LookupOptions): Pronunciation[] {
  if (!word.otherReadings) return first;
  const other = word.otherReadings.flatMap((reading) =>
    joinPronunciations(reading.map((w) => lexicon.lookupWord(w, opts)), 1).map((p) => ({ ...p, reading })));
  return addUnique([...first], other);
}

export function lookupText(lexicon: EnglishLexicon, text: EnglishTextAnalysis, opts: TextLookupOptions = {}): WordEntry[] {
  const lookupOpts = { dialect: opts.dialect ?? 'en-US', weakForms: opts.weakForms ?? defaultWeakForms(text.kind) };
  const entries: WordEntry[] = text.words.map((word) => {
    const described = word.spoken.map((w) => lexicon.describeWord(w, lookupOpts));
    const first = described.length === 1 ? described[0].prons : joinPronunciations(described.map((d) => d.prons));
    const prons = withOtherReadings(lexicon, word, first, lookupOpts);
    return {
      word,
      prons: described[0].oov && ACRONYM.test(word.text) ? spelledOut(lexicon, word.text, prons, lookupOpts.dialect) : prons,
      oov: described.some((d) => d.oov),
      functionWord: word.spoken.length === 1 && isFunctionWord(word.spoken[0]),
      linkable: false,
    };
  });
  for (let i = 0; i + 1 < entries.length; i++) {
    const a = entries[i];
    const b = entries[i + 1];
    const sameRun = a.word.punctuationAfter === '' && a.word.sentenceIndex === b.word.sentenceIndex;
    a.linkable = text.kind !== 'alpha' && sameRun && isLinkable(a.prons, b.prons, a.word.spoken[a.word.spoken.length - 1]);
  }
  return entries;
}
