/**
 * The reading plan: the reference text analysed, every word with all its accepted
 * pronunciations, and the slot grammar the acoustic backend aligns. Every word slot is
 * optional, so a word the reader left out (or replaced by another word) is skipped by the
 * aligner instead of being stretched over the neighbours' audio; the skip is the omission
 * evidence. Text errors (empty, only punctuation, over 1,000 characters, non-letters in
 * `alpha`) throw `invalid()` (40001) from the text layer.
 */
import type { EnglishTextKind } from '../text/types.js';
import { analyzeEnglishText } from '../text/index.js';
import type { EnglishTextAnalysis } from '../text/types.js';
import { lookupText, parseArpabet, type EnglishDialect, type EnglishLexicon, type Pronunciation, type WordEntry } from '../lexicon/index.js';
import { invalid } from '../../errors.js';
import type { GrammarSpec } from '../../acoustic/types.js';

export interface ReadingPlan {
  kind: EnglishTextKind;
  dialect: EnglishDialect;
  analysis: EnglishTextAnalysis;
  entries: WordEntry[];
  grammar: GrammarSpec;
}

export function planReading(lexicon: EnglishLexicon, referenceText: string, kind: EnglishTextKind, dialect: EnglishDialect): ReadingPlan {
  const analysis = analyzeEnglishText(referenceText, { kind });
  const entries = lookupText(lexicon, analysis, { dialect });
  return { kind, dialect, analysis, entries, grammar: grammarOf(entries, true) };
}

/** The entry's pronunciations the aligner tells apart (distinct phone strings), in order. */
function alignedPronunciations(entry: WordEntry): Pronunciation[] {
  const seen = new Set<string>();
  return entry.prons.filter((p) => {
    const key = p.phones.join(' ');
    if (p.phones.length === 0 || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** One slot per read word, every accepted pronunciation an alternative (distinct phone strings). */
export function grammarOf(entries: readonly WordEntry[], optional: boolean): GrammarSpec {
  return {
    slots: entries.map((e) => ({ optional, alternatives: [{ label: String(e.word.index), prons: alignedPronunciations(e).map((p) => p.phones) }] })),
    optionalSilence: true,
  };
}

/** The pronunciation of `entry` whose phones the aligner chose (alternative index into distinct prons). */
export function chosenPronunciation(entry: WordEntry, pronIndex: number): Pronunciation {
  const distinct = alignedPronunciations(entry);
  return distinct[pronIndex] ?? distinct[0];
}

/**
 * Adds caller-supplied pronunciations (ARPAbet, stress digits optional) to the words they
 * name, as further accepted variants; the dictionary's own stay accepted. Returns a new plan
 * with its grammar rebuilt. A pronunciation that is not ARPAbet is 40001.
 */
export function withCustomPronunciations(plan: ReadingPlan, custom: Readonly<Record<string, string[]>>): ReadingPlan {
  const keys = Object.keys(custom);
  if (keys.length === 0) return plan;
  const entries = plan.entries.map((entry) => {
    const key = entry.word.text.toLowerCase();
    const extra = custom[key] ?? (entry.word.spoken.length === 1 ? custom[entry.word.spoken[0]] : undefined);
    if (!extra) return entry;
    const prons = extra.map((text) => {
      try {
        return parseArpabet(text.toUpperCase(), 'custom');
      } catch (err) {
        throw invalid(`customized pronunciation of "${key}" is not ARPAbet: ${err instanceof Error ? err.message : String(err)}`);
      }
    });
    return { ...entry, prons: [...entry.prons, ...prons] };
  });
  return { ...plan, entries, grammar: grammarOf(entries, true) };
}
