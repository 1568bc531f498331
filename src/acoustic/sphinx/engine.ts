/**
 * The PocketSphinx acoustic engine in the calling thread: one decoder per language, forced
 * alignment of slot grammars (word pass, then an optional phone pass), free phone loop and GOP.
 * Synchronous and CPU-heavy: the service runs it inside pool workers (../pool.ts); tools and
 * benchmarks may use it directly.
 */
import type { FastScoring } from '../../config.js';
import { resolveModels, type ModelPaths } from '../../models.js';
import { loadDictionary, type LoadedLexicon } from '../lexicon.js';
import { withGop } from '../gop.js';
import { SAMPLES_PER_FRAME } from '../types.js';
import { isNonSpeech, type AcousticLang, type AlignOptions, type AlignResult, type FrameWindow, type GrammarSpec, type PhoneSegment, type UnitSegment, type WindowOptions } from '../types.js';
import { SphinxDecoder, type Beams, type DecodedSegment } from './decoder.js';
import { compileGrammar, isPronWord, parseSlots, type CompiledGrammar } from './grammar.js';
import { compilePhoneSequence, phonesOfWord, pronWord } from './grammar.js';
import { buildUnits, isContentUnit, refineWithPhones, unitPhones } from './units.js';
import { warpFor } from './vtln.js';

/**
 * Beam schedule for grammar searches, tried in order until the best path is a complete parse
 * of the grammar. A reference grammar has essentially one path, so pruning it away is fatal:
 * with the library defaults (1e-48 / 1e-48 / 7e-29) and live-mode feature normalisation the
 * search ends off the grammar ("Final result does not match the grammar") on about half of
 * AISHELL sentences. Whole-utterance decoding (full_utt) cut that to 0 of 100 here, but the
 * default beams still moved boundaries (up to 340 ms on 1 sentence of 60), while 1e-80 costs
 * only about 0.009 of real time; 1e-200 is a last resort (figures in docs/acoustic.md).
 */
export const ALIGN_BEAMS: readonly Beams[] = [
  { beam: 1e-80, pbeam: 1e-80, wbeam: 1e-60 },
  { beam: 1e-200, pbeam: 1e-200, wbeam: 1e-150 },
];
/** Beams of the free phone loop: the library defaults; it has no single path to lose. */
export const LOOP_BEAMS: Beams = { beam: 1e-48, pbeam: 1e-48, wbeam: 7e-29 };

/**
 * Beam schedules of word passes (which slots were read, which alternative). A word pass only
 * decides those: phone spans and scores come from the phone pass, which keeps ALIGN_BEAMS.
 * Mandarin word passes try the library defaults first (a lost path still falls back to the wide
 * beams): `npm run bench:zh-engine` alignment 94-98 → 67-76 ms CPU per sentence, validity within
 * one or two cases in 80 sentences (docs/mandarin-engine.md). English keeps the wide beams: with
 * the defaults first its substitution precision fell, and with word exits alone pruned at 1e-30
 * or 1e-40 more words of learners' readings were skipped (docs/english-engine.md).
 */
const WORD_PASS_BEAMS: Record<AcousticLang, readonly Beams[]> = {
  zh: [LOOP_BEAMS, ...ALIGN_BEAMS],
  en: ALIGN_BEAMS,
};

/**
 * Word passes of check decodes (AlignOptions `quick`): English keeps the wide state beams but
 * prunes word exits at 1e-30. With every slot optional, each word exit reaches every later slot
 * through the grammar's null transitions, so such a pass keeps many word exits alive; pruning
 * them makes the checks cheaper (docs/acoustic.md, "Beams"). Mandarin's schedule already
 * starts at the defaults.
 */
export const CHECK_WORD_BEAMS: Record<AcousticLang, readonly Beams[]> = {
  zh: WORD_PASS_BEAMS.zh,
  en: [{ beam: 1e-80, pbeam: 1e-80, wbeam: 1e-30 }, ...ALIGN_BEAMS],
};
/** Shortest audio worth aligning: 0.1 s (10 frames); one syllable takes about 20. */
export const MIN_ALIGN_FRAMES = 10;

/**
 * Word insertion penalty while insertions are allowed. JSGF alternative weights turned out to
 * have no effect on the 5prealpha FSG search (1e-4 and 1e-30 gave identical paths), so the
 * insertion loop is held back by the per-word penalty instead: the slot words are a fixed count
 * whatever the penalty, so it only weighs against inserted phones (and skipped optional slots).
 * 1e-10 gave no insertions on correct LibriVox and AISHELL readings while a dropped word
 * still came out as inserted phones; 1e-3 and 1e-6 inserted phones into correct readings.
 */
export const INSERTION_WIP = 1e-10;

/**
 * Word insertion penalty of the alignment's grammar searches per language, where it differs
 * from the library's default (0.65). The library counts the penalty paid on entering a word
 * into that word's segment score, and in the phone pass every phone is a word: under 0.65 each
 * forced phone score carried log(0.65) x lw, about -2.8 nats, that the free loop's score does
 * not, so GOP was biased down by 2.8 nats over the phone's frames (a 3-frame phone by 0.9 nats
 * per frame). English aligns with no penalty (1), so its GOP is the acoustic comparison alone
 * and its optional word slots are read or skipped on the acoustics alone; Mandarin's thresholds
 * were calibrated with the offset and keep it. Every complete path of the phone pass enters the
 * same number of words, so the penalty does not choose its boundaries (only beam pruning could
 * see it). Check decodes (`quick`) keep the library's penalty: their optional
 * slots are extra speech (a repeated word) that should have to earn its place. A `-wip` among
 * the decoder options (DecoderArgs) applies to every search.
 */
const GRAMMAR_WIP: Partial<Record<AcousticLang, number>> = { en: 1 };

/**
 * Audio whose loudest 10 ms frame stays below this RMS (about -60 dBFS of 16-bit full scale) is
 * silence: the grammar search would otherwise stretch the words over it, since wide beams
 * keep every path alive.
 */
export const SILENCE_RMS = 32;

/** Less free-loop speech than this (0.1 s) makes a failed alignment 'no-speech'. */
const MIN_SPEECH_FRAMES = 10;

const LOOP_SEARCH = 'loop';
const ALIGN_SEARCH = 'align';

interface LangEngine {
  decoder: SphinxDecoder;
  /** The free phone loop's decoder: `decoder` itself unless loop options were given (DecoderArgs). */
  loopDecoder: SphinxDecoder;
  /** Context-independent phones of the dictionary: insertion loop and phone words. */
  phones: string[];
  lexicon: LoadedLexicon;
  /** Word insertion penalty of the language's alignment grammars (GRAMMAR_WIP), restored after insertion grammars. */
  wip: number;
  /** Word insertion penalty of check decodes: the decoder's own (library default 0.65). */
  checkWip: number;
  /** Language weight of grammar transitions as loaded (library default); other searches change it. */
  lw: number;
}

/**
 * Extra decoder options per language (PocketSphinx command-line style, e.g. `-topn 2`), for
 * measuring a variant of the acoustic front end against the validity data; the service never
 * sets them. They apply to every search of the language's decoder, free recognition included.
 * `loop` holds options for the free phone loop alone (e.g. `-ds 2`): the loop then runs on a
 * decoder of its own, made with the language's options and these.
 */
export type DecoderArgs = Partial<Record<AcousticLang, readonly string[]>> & { loop?: Partial<Record<AcousticLang, readonly string[]>> };

/** Decoder options of one language from a space-separated string (a tool's command line); none when empty. */
export function decoderArgsOf(lang: AcousticLang, options: string | undefined, loopOptions?: string): DecoderArgs {
  const split = (text: string | undefined) => text?.trim().split(/\s+/).filter(Boolean) ?? [];
  const list = split(options);
  const loop = split(loopOptions);
  return { ...(list.length > 0 ? { [lang]: list } : {}), ...(loop.length > 0 ? { loop: { [lang]: loop } } : {}) };
}

export class SphinxEngine {
  private readonly langs = new Map<AcousticLang, LangEngine>();

  private constructor() {}

  /**
   * Loads a decoder per language (150-230 ms each), and a loop decoder where loop options are
   * given. They score frames as `fastScoring` says (config.ts `FastScoring`); the answers are
   * the same every way.
   */
  static create(modelsDir: string, langs: readonly AcousticLang[] = ['zh', 'en'], decoderArgs: DecoderArgs = {}, fastScoring: FastScoring = 'on'): SphinxEngine {
    const paths = resolveModels(modelsDir);
    const engine = new SphinxEngine();
    for (const lang of langs) engine.langs.set(lang, loadLang(paths, lang, decoderArgs[lang] ?? [], decoderArgs.loop?.[lang] ?? [], fastScoring));
    return engine;
  }

  /** The decoder of a language, for other searches built on the same model (recognition). */
  decoder(lang: AcousticLang): SphinxDecoder {
    return this.lang(lang).decoder;
  }

  phones(lang: AcousticLang): string[] {
    return this.lang(lang).phones;
  }

  /** The pronunciation dictionary the decoder was loaded with. */
  lexicon(lang: AcousticLang): LoadedLexicon {
    return this.lang(lang).lexicon;
  }

  align(lang: AcousticLang, pcm: Int16Array, grammar: GrammarSpec, opts: AlignOptions = {}): AlignResult {
    const le = this.lang(lang);
    const { audio, offset } = cut(pcm, opts.window);
    const input = { audio, warp: warpFor(lang, opts.speakerF0), reading: opts.reading };
    const frames = Math.floor(audio.length / SAMPLES_PER_FRAME);
    if (frames < MIN_ALIGN_FRAMES) {
      return { ok: false, reason: 'too-short', message: `audio of ${frames * 10} ms is too short to align` };
    }
    if (peakFrameRms(audio) < SILENCE_RMS) {
      return { ok: false, reason: 'no-speech', message: 'the audio is silent' };
    }
    if (grammar.slots.length === 0) throw new Error('a grammar needs at least one slot');
    const compiled = compileGrammar(grammar, le.phones);
    const wip = grammar.allowInsertions ? INSERTION_WIP : opts.quick ? le.checkWip : le.wip;
    const schedule = (opts.quick ? CHECK_WORD_BEAMS : WORD_PASS_BEAMS)[lang];
    const pass = decodeGrammar(le.decoder, compiled, input, (words) => parseSlots(words, grammar), { wip, lw: le.lw }, schedule);
    if (!pass.ok) return this.failure(le, input, 'alignment');
    let units = buildUnits(pass.segments, pass.parsed, grammar, offset);
    let loop: PhoneSegment[] | null = null;
    if (opts.phones || opts.gop) {
      const refined = phonePass(le, input, offset, grammar, units);
      if (!refined) return this.failure(le, input, 'phone-level alignment');
      units = refined;
      // Every slot optional and skipped: there are no phones to score.
      if (opts.gop && units.some(isContentUnit)) {
        const segments = this.loopSegments(le, input, offset);
        loop = segments;
        units = units.map((u) => ({ ...u, phones: withGop(u.phones, segments) }));
      }
    }
    if (!opts.phoneLoop) return { ok: true, frames, units };
    return { ok: true, frames, units, loop: loop ?? this.loopSegments(le, input, offset) };
  }

  /**
   * The phone pass of `align` on its own: `units` are the word pass's answer (an `align`
   * without phones on the same audio or window), returned with their phone segments exactly
   * as `align` with `phones: true` gives them. A caller can act on the words while it runs.
   */
  alignPhones(lang: AcousticLang, pcm: Int16Array, grammar: GrammarSpec, units: readonly UnitSegment[], opts: WindowOptions = {}): AlignResult {
    const le = this.lang(lang);
    const { audio, offset } = cut(pcm, opts.window);
    const input = { audio, warp: warpFor(lang, opts.speakerF0), reading: opts.reading };
    const refined = phonePass(le, input, offset, grammar, units);
    if (!refined) return this.failure(le, input, 'phone-level alignment');
    return { ok: true, frames: Math.floor(audio.length / SAMPLES_PER_FRAME), units: refined };
  }

  phoneLoop(lang: AcousticLang, pcm: Int16Array, opts: WindowOptions = {}): PhoneSegment[] {
    const { audio, offset } = cut(pcm, opts.window);
    // Windows shorter than the alignments' minimum are not decoded either: a few frames hold no
    // phone worth scoring, and whole-utterance feature normalisation over them is degenerate.
    if (audio.length < MIN_ALIGN_FRAMES * SAMPLES_PER_FRAME) return [];
    return this.loopSegments(this.lang(lang), { audio, warp: warpFor(lang, opts.speakerF0), reading: opts.reading }, offset);
  }

  close(): void {
    for (const le of this.langs.values()) {
      if (le.loopDecoder !== le.decoder) le.loopDecoder.free();
      le.decoder.free();
    }
    this.langs.clear();
  }

  /**
   * A grammar that no beam could fit: 'no-speech' when the free phone loop hears less than
   * MIN_SPEECH_FRAMES of phones (all silence or noise), 'no-match' otherwise.
   */
  private failure(le: LangEngine, input: DecoderInput, what: string): AlignResult {
    const speech = this.loopSegments(le, input, 0)
      .filter((s) => !isNonSpeech(s.phone))
      .reduce((n, s) => n + s.endFrame - s.startFrame, 0);
    if (speech < MIN_SPEECH_FRAMES) {
      return { ok: false, reason: 'no-speech', message: `${what}: no speech was found in the audio` };
    }
    return { ok: false, reason: 'no-match', message: `${what}: the audio does not match the text` };
  }

  private loopSegments(le: LangEngine, input: DecoderInput, offset: number): PhoneSegment[] {
    le.loopDecoder.useSearch(LOOP_SEARCH);
    le.loopDecoder.decode(input.audio, input.warp, input.reading);
    return le.loopDecoder.segments().map((s) => ({
      phone: s.word,
      startFrame: s.startFrame + offset,
      endFrame: s.endFrame + offset,
      score: s.ascr,
    }));
  }

  private lang(lang: AcousticLang): LangEngine {
    const le = this.langs.get(lang);
    if (!le) throw new Error(`no acoustic model loaded for ${lang}`);
    return le;
  }
}

function loadLang(paths: ModelPaths, lang: AcousticLang, args: readonly string[], loopArgs: readonly string[], fastScoring: FastScoring): LangEngine {
  const model = lang === 'zh' ? paths.zh : paths.en;
  const decoder = SphinxDecoder.create({ hmm: model.acoustic, dict: model.dict, args: [...args], fastScoring });
  const lexicon = loadDictionary(model.dict, lang);
  const phones = lexicon.phones;
  // Single phones as words, for the phone pass and the insertion loop.
  for (const p of phones) {
    if (!decoder.addWord(pronWord([p]), [p])) throw new Error(`model ${model.acoustic} lacks phone ${p}`);
  }
  decoder.setBeams(LOOP_BEAMS);
  decoder.setPhoneLoop(LOOP_SEARCH);
  let loopDecoder = decoder;
  if (loopArgs.length > 0) {
    // No dictionary: the loop needs only the model's phones.
    loopDecoder = SphinxDecoder.create({ hmm: model.acoustic, args: [...args, ...loopArgs], fastScoring });
    loopDecoder.setBeams(LOOP_BEAMS);
    loopDecoder.setPhoneLoop(LOOP_SEARCH);
  }
  const checkWip = decoder.floatOption('-wip');
  const wip = args.includes('-wip') ? checkWip : (GRAMMAR_WIP[lang] ?? checkWip);
  return { decoder, loopDecoder, phones, lexicon, wip, checkWip, lw: decoder.floatOption('-lw') };
}

/**
 * Phone segments for the word pass's units: one forced pass over the chosen pronunciations'
 * phones as a sequence. The units unchanged when no slot was read; null when the sequence
 * cannot be fitted.
 */
function phonePass(le: LangEngine, input: DecoderInput, offset: number, grammar: GrammarSpec, units: readonly UnitSegment[]): UnitSegment[] | null {
  const perUnit = units.filter(isContentUnit).map((u) => unitPhones(u, grammar));
  if (perUnit.length === 0) return [...units];
  const expected = perUnit.flat();
  const seq = compilePhoneSequence(expected);
  const pass = decodeGrammar(le.decoder, seq, input, (words) => sameSequence(words, expected), le);
  return pass.ok ? refineWithPhones(units, pass.segments, perUnit, offset) : null;
}

/** The samples one pass decodes and the front end's warp for their reader (vtln.ts). */
interface DecoderInput {
  audio: Int16Array;
  warp: number;
  /** PassOptions.reading. */
  reading?: number;
}

type PassResult<T> = { ok: true; segments: DecodedSegment[]; parsed: T } | { ok: false; segments: DecodedSegment[] };

/** Decodes with the grammar under each beam of the schedule (ALIGN_BEAMS unless given) until `parse` accepts the words. */
function decodeGrammar<T>(
  decoder: SphinxDecoder,
  compiled: CompiledGrammar,
  input: DecoderInput,
  parse: (words: string[]) => T | null,
  penalties: { wip: number; lw: number },
  schedule: readonly Beams[] = ALIGN_BEAMS,
): PassResult<T> {
  for (const [word, phones] of compiled.words) {
    if (!decoder.addWord(word, phones)) throw new Error(`pronunciation ${phones.join(' ')} uses a phone the model lacks`);
  }
  let segments: DecodedSegment[] = [];
  for (const beams of schedule) {
    decoder.setBeams(beams);
    // Searches read these when created, and the recognition search sets its own values.
    decoder.setFloatOption('-wip', penalties.wip);
    decoder.setFloatOption('-lw', penalties.lw);
    decoder.setJsgf(ALIGN_SEARCH, compiled.jsgf);
    decoder.decode(input.audio, input.warp, input.reading);
    segments = decoder.segments();
    const parsed = parse(segments.filter((s) => isPronWord(s.word)).map((s) => s.word));
    if (parsed !== null) return { ok: true, segments, parsed };
  }
  return { ok: false, segments };
}

function sameSequence(words: string[], expected: string[]): true | null {
  if (words.length !== expected.length) return null;
  return words.every((w, i) => phonesOfWord(w)[0] === expected[i]) ? true : null;
}

function peakFrameRms(audio: Int16Array): number {
  let peak = 0;
  for (let start = 0; start + SAMPLES_PER_FRAME <= audio.length; start += SAMPLES_PER_FRAME) {
    let sum = 0;
    for (let i = start; i < start + SAMPLES_PER_FRAME; i++) sum += audio[i] * audio[i];
    peak = Math.max(peak, sum);
  }
  return Math.sqrt(peak / SAMPLES_PER_FRAME);
}


function cut(pcm: Int16Array, window?: FrameWindow): { audio: Int16Array; offset: number } {
  if (!window) return { audio: pcm, offset: 0 };
  const total = Math.floor(pcm.length / SAMPLES_PER_FRAME);
  const start = Math.max(0, Math.min(total, Math.floor(window.startFrame)));
  const end = Math.max(start, Math.min(total, Math.floor(window.endFrame)));
  return { audio: pcm.subarray(start * SAMPLES_PER_FRAME, end * SAMPLES_PER_FRAME), offset: start };
}
