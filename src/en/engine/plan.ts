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
import { lookupText, parseArpabet, type EnglishDialect, type EnglishLexicon, type WordEntry } from '../lexicon/index.js';
import { invalid } from '../../errors.js';
import { WORD_BREAK, type GrammarSpec } from '../../acoustic/types.js';
import type { Pronunciation } from '../lexicon/index.js';

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

/** A pronunciation as the aligner takes it: its phones, with WORD_BREAK where a spoken word begins. */
function slotPhones(p: Pronunciation): string[] {
  if (!p.breaks) return p.phones;
  return p.phones.flatMap((ph, i) => (p.breaks!.includes(i) ? [WORD_BREAK, ph] : [ph]));
}

/** The entry's pronunciations the aligner tells apart (distinct phones and breaks), in order. */
function alignedPronunciations(entry: WordEntry): { pron: Pronunciation; phones: string[] }[] {
  const seen = new Set<string>();
  const out: { pron: Pronunciation; phones: string[] }[] = [];
  for (const pron of entry.prons) {
    const phones = slotPhones(pron);
    const key = phones.join(' ');
    if (pron.phones.length === 0 || seen.has(key)) continue;
    seen.add(key);
    out.push({ pron, phones });
  }
  return out;
}

/** One slot per read word, every accepted pronunciation an alternative (distinct phone strings). */
export function grammarOf(entries: readonly WordEntry[], optional: boolean): GrammarSpec {
  return {
    slots: entries.map((e) => ({ optional, alternatives: [{ label: String(e.word.index), prons: alignedPronunciations(e).map((a) => a.phones) }] })),
    optionalSilence: true,
  };
}

/** The pronunciation of `entry` whose phones the aligner chose (alternative index into distinct prons). */
export function chosenPronunciation(entry: WordEntry, pronIndex: number): Pronunciation {
  const distinct = alignedPronunciations(entry);
  return (distinct[pronIndex] ?? distinct[0]).pron;
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
