/**
 * Free recognition (the standalone ASR endpoint) with PocketSphinx n-gram searches:
 * English with the model's `en-us.lm.bin` and cmudict, Mandarin with the repaired
 * `gigatdt.5000.DMP` (lm/cache.ts) and `mandarin_notone.dic`.
 *
 * Runs synchronously in the thread that owns the decoder (a pool worker). The n-gram search is
 * installed once per decoder under its own name, beside the alignment searches, so one loaded
 * acoustic model serves both. Whole-utterance decoding (full_utt) normalises the cepstra over
 * the whole recording: live normalisation starts from the model's `-cmninit` and, on AISHELL,
 * raised the character error rate from about 0.42 to about 0.9 on the same 20 sentences.
 */
import path from 'node:path';
import { resolveModels } from '../models.js';
import { loadDictionary, type LoadedLexicon } from './lexicon.js';
import { ensureArpaFromDmp } from './lm/cache.js';
import { splitIntoCharacters, isWordToken, cleanWord, type TimedWord } from './recognize-words.js';
import { wordPosteriors } from './recognize-confidence.js';
import { SphinxDecoder, type Beams } from './sphinx/decoder.js';
import type { AcousticLang, RecognizeResult } from './types.js';

const LM_SEARCH = 'recognize-lm';

/**
 * Beams of the n-gram search: the library defaults (1e-48, 1e-48, 7e-29). Wider beams
 * (1e-60/1e-40/1e-60) did not lower the Mandarin error rate on 20 AISHELL sentences and cost
 * more time; a free search has many paths, so pruning does not make it fail outright.
 */
export const LM_BEAMS: Beams = { beam: 1e-48, pbeam: 1e-48, wbeam: 7e-29 };

/** Word insertion penalty and language weight of the n-gram search: the library defaults. */
export const LM_WIP = 0.65;
export const LM_WEIGHT = 6.5;

export interface RecognizerLang {
  decoder: SphinxDecoder;
  /** Dictionary, for splitting Mandarin words into characters by their phones. */
  lexicon: LoadedLexicon | null;
}

export interface RecognizerSetup {
  /** Language-model file per language. */
  lm: Record<AcousticLang, string>;
}

/**
 * Language-model paths for a models folder; Mandarin's is converted into `cacheDir`
 * (`${config.dataDir}/cache`) at first call.
 */
export function recognizerSetup(modelsDir: string, cacheDir: string): RecognizerSetup {
  const paths = resolveModels(modelsDir);
  return { lm: { en: paths.en.lm, zh: ensureArpaFromDmp(paths.zh.lmDmp, cacheDir).path } };
}

export class Recognizer {
  private readonly installed = new Set<SphinxDecoder>();

  constructor(private readonly setup: RecognizerSetup) {}

  /**
   * Recognises one utterance with `decoder` (which must hold the language's acoustic model and
   * dictionary). Mandarin words come back split into characters; frames are 10 ms, end exclusive.
   */
  recognize(lang: AcousticLang, decoder: SphinxDecoder, pcm: Int16Array, lexicon: LoadedLexicon | null): RecognizeResult {
    this.prepare(lang, decoder);
    decoder.useSearch(LM_SEARCH);
    if (pcm.length === 0) return { text: '', words: [], confidence: lang === 'en' ? 0 : null };
    decoder.decode(pcm);
    const segments = decoder.segments().filter((s) => isWordToken(s.word));
    let words: TimedWord[] = segments.map((s) => ({ word: cleanWord(s.word), startFrame: s.startFrame, endFrame: s.endFrame }));
    let confidence: number | null = null;
    if (lang === 'en') {
      const post = wordPosteriors(decoder).filter((w) => isWordToken(w.word));
      confidence = post.length === 0 ? 0 : post.reduce((a, w) => a + w.posterior, 0) / post.length;
    } else {
      words = words.flatMap((w) => splitIntoCharacters(w, lexicon));
    }
    const text = words.map((w) => w.word).join(lang === 'en' ? ' ' : '');
    return { text, words, confidence };
  }

  /**
   * Loads the language model into `decoder` as a search of its own (about 0.5 s for English,
   * 1-2 s for the Mandarin ARPA file). Call it when a worker starts, so the first request does
   * not pay for it; `recognize` calls it too. The search reads beams, word insertion penalty and
   * language weight when it is created, so they are set here explicitly (alignment changes them).
   */
  prepare(lang: AcousticLang, decoder: SphinxDecoder): void {
    if (this.installed.has(decoder)) return;
    decoder.setBeams(LM_BEAMS);
    decoder.setFloatOption('-wip', LM_WIP);
    decoder.setFloatOption('-lw', LM_WEIGHT);
    decoder.setLmFile(LM_SEARCH, this.setup.lm[lang]);
    this.installed.add(decoder);
  }
}

/**
 * A recogniser with its own decoders, for tools, benchmarks and tests. The service instead
 * passes the pool workers' decoders to `Recognizer.recognize`.
 */
export function standaloneRecognizer(modelsDir: string, cacheDir: string, langs: readonly AcousticLang[] = ['zh', 'en']) {
  const paths = resolveModels(modelsDir);
  const recognizer = new Recognizer(recognizerSetup(modelsDir, cacheDir));
  const byLang = new Map<AcousticLang, RecognizerLang>();
  for (const lang of langs) {
    const model = lang === 'zh' ? paths.zh : paths.en;
    const decoder = SphinxDecoder.create({ hmm: model.acoustic, dict: model.dict });
    byLang.set(lang, { decoder, lexicon: lang === 'zh' ? loadDictionary(model.dict, lang) : null });
  }
  return {
    recognize(lang: AcousticLang, pcm: Int16Array): RecognizeResult {
      const l = byLang.get(lang);
      if (!l) throw new Error(`no recogniser loaded for ${lang}`);
      return recognizer.recognize(lang, l.decoder, pcm, l.lexicon);
    },
    close(): void {
      for (const l of byLang.values()) l.decoder.free();
      byLang.clear();
    },
  };
}

/** Default cache folder for a data directory. */
export function cacheDirOf(dataDir: string): string {
  return path.join(dataDir, 'cache');
}
