/**
 * The mobile-client intermediate results of the compat real-time channel (spec Events, the
 * intermediate-results table), driven by the acoustic backend's incremental decoding:
 *   {tokenId, recordId:'', eof:0, result:{kernel_version, resource_version, words, readUnits,
 *    matchedUnits, totalUnits, progress}}
 * `words` lists only reference words newly read in this step, each once; matched words score
 * 100 with skipped 0, unmatched 0 with skipped 1; English tone is 0. Nothing is sent when
 * nothing new was read. Real scores come with the final result.
 */
import type { AcousticBackend, AcousticLang, AlignUnit, ProgressSession, ProgressUpdate } from '../../acoustic/types.js';
import { KERNEL_VERSION as EN_KERNEL } from '../../en/engine/assessment.js';
import { planReading, withCustomPronunciations } from '../../en/engine/plan.js';
import { loadEnglishLexicon } from '../../en/lexicon/index.js';
import type { EnglishTextKind } from '../../en/text/types.js';
import { KERNEL_VERSION as ZH_KERNEL, analyzeRequestText } from '../../zh/engine/engine.js';
import { syllableTable } from '../../zh/engine/syllables.js';
import type { EvaluationConfig } from '../config.js';
import { scoringDialect } from '../compat.js';
import { withCustomPinyin } from '../custom-lexicon.js';
import type { CompatOptions } from '../types.js';
import type { InterimTracker } from './compat.js';

interface RefWord {
  word: string;
  beginIndex: number;
  endIndex: number;
  /** Index of this word's unit in the progress reference; null when no pronunciation is known. */
  unit: number | null;
}

export interface ProgressReference {
  words: RefWord[];
  units: AlignUnit[];
  lang: AcousticLang;
}

/** The pronunciations a scorer accepts beyond the dictionary's (compat `customized_*`, `.pro`). */
export type ScorerPronunciations = Pick<CompatOptions, 'lexicon' | 'adaptive'>;

/**
 * The reference words in order, with the pronunciations the final scorer aligns, so progress
 * and the final `words` agree on what a word is and how it may sound:
 * - English: the English engine's reading plan (src/en/engine/plan.ts): every read word of the
 *   text layer (numbers as their spoken words, abbreviations, hyphenated words, alpha letters),
 *   dictionary pronunciations with the letter-to-sound fallback for other words, the compat
 *   custom pronunciations added as variants, British variants too for `.pro` kinds.
 * - Mandarin: the Mandarin engine's text (src/zh/engine/text.ts): read characters with their
 *   pinyin in context (digits become the characters read, e.g. 3 → 三), `refPinyin` and the
 *   compat custom readings applied, each syllable spelt in the model's phones. Latin letters and
 *   other symbols are not read there, so they are not reference words here either.
 * Offsets are the final `words`' own (code points for Mandarin, UTF-16 units for English).
 */
export async function referenceWords(config: EvaluationConfig, backend: AcousticBackend, custom?: ScorerPronunciations): Promise<ProgressReference> {
  const words: RefWord[] = [];
  const units: AlignUnit[] = [];
  const add = (word: Omit<RefWord, 'unit'>, label: string, prons: string[][]) => {
    const distinct = [...new Map(prons.filter((p) => p.length > 0).map((p) => [p.join(' '), p])).values()];
    const unit = distinct.length > 0 ? units.push({ label, prons: distinct }) - 1 : null;
    words.push({ ...word, unit });
  };
  if (config.language === 'zh-CN') {
    const text = analyzeRequestText(custom ? withCustomPinyin(config, custom.lexicon) : config);
    const table = syllableTable(backend.lexicon('zh'));
    for (const i of text.read) {
      const t = text.tokens[i];
      add({ word: t.text, beginIndex: t.beginIndex, endIndex: t.endIndex }, t.syllable, (table.prons.get(t.syllable) ?? []).map((p) => [...p]));
    }
    return { words, units, lang: 'zh' };
  }
  const dialect = scoringDialect(config, custom);
  const kind = config.coreType as EnglishTextKind;
  const plan = withCustomPronunciations(planReading(await loadEnglishLexicon(), config.referenceText, kind, dialect), custom?.lexicon ?? {});
  for (const entry of plan.entries) {
    const w = entry.word;
    add({ word: w.text, beginIndex: w.beginIndex, endIndex: w.endIndex }, w.spoken.join(' '), entry.prons.map((p) => p.phones));
  }
  return { words, units, lang: 'en' };
}

export function createInterimTracker(backend: Promise<AcousticBackend>, config: EvaluationConfig, tokenId: string, custom?: ScorerPronunciations): InterimTracker {
  const english = config.language !== 'zh-CN';
  let state: { words: RefWord[]; session: ProgressSession | null } | null = null;
  let fed = 0;
  let delivered = 0; // reference words already sent
  let closed = false;

  // Progress is advisory: a backend without progress sessions leaves the tracker silent.
  const ready = backend
    .then(async (b) => {
      const ref = await referenceWords(config, b, custom);
      state = { words: ref.words, session: ref.units.length ? b.openProgress(ref.lang, ref.units) : null };
      if (closed) state.session?.close();
    })
    .catch(() => {
      state = null;
    });

  function frame(update: ProgressUpdate): Record<string, unknown> | null {
    const words = state!.words;
    // A word counts as read once the decoder has passed its unit. A word without a unit (no
    // pronunciation known, rare) cannot be heard: it is read, unmatched, with the word before it
    // (or at once when it comes first), so it never holds back the words after it nor the end.
    let read = 0;
    for (let i = 0; i < words.length; i++) {
      const unit = words[i].unit;
      if (unit === null ? read === i : unit < update.readUnits) read = i + 1;
    }
    if (read <= delivered) return null;
    const fresh = words.slice(delivered, read).map((w) => {
      const matched = w.unit !== null && update.matched[w.unit] === true;
      const score = matched ? 100 : 0;
      return {
        charType: 0,
        word: w.word,
        scores: { pronunciation: score, skipped: matched ? 0 : 1, tone: english ? 0 : score, overall: score, overall_pron: score },
        word_parts: [{ part: w.word, charType: 0, beginIndex: w.beginIndex, endIndex: w.endIndex }],
      };
    });
    delivered = read;
    const isMatched = (w: RefWord) => w.unit !== null && update.matched[w.unit] === true;
    return {
      tokenId,
      recordId: '',
      eof: 0,
      result: {
        kernel_version: english ? EN_KERNEL : ZH_KERNEL,
        resource_version: english ? 'pocketsphinx-en-us' : 'pocketsphinx-zh-tdt_sc_8k',
        words: fresh,
        readUnits: read,
        matchedUnits: words.filter(isMatched).length,
        totalUnits: words.length,
        progress: words.map((w, i) => ({ word: w.word, read: i < read, matched: i < read && isMatched(w) })),
      },
    };
  }

  return {
    get complete() {
      return state !== null && state.words.length > 0 && delivered === state.words.length;
    },
    async update(pcm) {
      await ready;
      if (closed || !state?.session || pcm.length <= fed) return null;
      const chunk = pcm.slice(fed);
      fed = pcm.length;
      return frame(await state.session.push(chunk));
    },
    async finish(pcm) {
      const last = pcm ? await this.update(pcm) : null;
      if (closed || !state?.session) return last;
      const update = await state.session.finish();
      const tail = frame(update);
      return tail ?? last;
    },
    close() {
      if (closed) return;
      closed = true;
      state?.session?.close();
    },
  };
}
