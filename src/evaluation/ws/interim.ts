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
import { KERNEL_VERSION as ZH_KERNEL } from '../../zh/engine/engine.js';
import type { EvaluationConfig } from '../config.js';
import type { InterimTracker } from './compat.js';

interface RefWord {
  word: string;
  beginIndex: number;
  endIndex: number;
  /** Index of this word's unit in the progress reference; null when the dictionary lacks it. */
  unit: number | null;
}

/** Reference words in order: Han characters for Chinese, words for English, with offsets. */
export function referenceWords(config: EvaluationConfig, backend: AcousticBackend): { words: RefWord[]; units: AlignUnit[]; lang: AcousticLang } {
  const lang: AcousticLang = config.language === 'zh-CN' ? 'zh' : 'en';
  const lexicon = backend.lexicon(lang);
  const pattern = lang === 'zh' ? /\p{Script=Han}/gu : /[A-Za-z]+(?:['’][A-Za-z]+)*/g;
  const words: RefWord[] = [];
  const units: AlignUnit[] = [];
  for (const match of config.referenceText.matchAll(pattern)) {
    const label = lang === 'zh' ? match[0] : match[0].toLowerCase().replace(/’/g, "'");
    const prons = lexicon.lookup(label);
    const begin = [...config.referenceText.slice(0, match.index)].length;
    const word: RefWord = { word: match[0], beginIndex: begin, endIndex: begin + [...match[0]].length, unit: null };
    if (prons && prons.length > 0) {
      word.unit = units.length;
      units.push({ label, prons });
    }
    words.push(word);
  }
  return { words, units, lang };
}

export function createInterimTracker(backend: Promise<AcousticBackend>, config: EvaluationConfig, tokenId: string): InterimTracker {
  const english = config.language !== 'zh-CN';
  let state: { words: RefWord[]; session: ProgressSession | null } | null = null;
  let fed = 0;
  let delivered = 0; // reference words already sent
  let closed = false;

  // Progress is advisory: a backend without progress sessions leaves the tracker silent.
  const ready = backend
    .then((b) => {
      const ref = referenceWords(config, b);
      state = { words: ref.words, session: ref.units.length ? b.openProgress(ref.lang, ref.units) : null };
      if (closed) state.session?.close();
    })
    .catch(() => {
      state = null;
    });

  function frame(update: ProgressUpdate): Record<string, unknown> | null {
    const words = state!.words;
    // A word counts as read once the decoder has passed its unit (words without a unit are read
    // when the word after them is).
    let read = 0;
    for (let i = 0; i < words.length; i++) {
      const unit = words[i].unit;
      if (unit !== null && unit < update.readUnits) read = i + 1;
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
