/**
 * The acoustic backend contract. Scoring code depends only on this file, so a stronger model
 * (for example an ONNX CTC model) can replace PocketSphinx without touching scoring or
 * transport code.
 *
 * Units: time is counted in 10 ms frames (100 frames per second of 16 kHz mono PCM), end
 * frames are exclusive. Scores are natural-log acoustic likelihoods (larger is better, <= 0 in
 * practice). An alignment that cannot be made is a typed `{ ok: false }` value, never an
 * exception: exceptions mean the engine itself is broken.
 */

export type AcousticLang = 'zh' | 'en';

/** Frames per second of the backends' time axis (10 ms frames). */
export const FRAMES_PER_SECOND = 100;
/** PCM sample rate every backend takes (16 kHz mono signed 16-bit). */
export const SAMPLE_RATE = 16000;
export const SAMPLES_PER_FRAME = SAMPLE_RATE / FRAMES_PER_SECOND;

/** A word/character to align, with one or more pronunciations in the model's phone set. */
export interface AlignUnit {
  label: string;
  prons: string[][];
}

/** One position of a slot grammar: one of the alternatives, optionally skippable. */
export interface GrammarSlot {
  alternatives: AlignUnit[];
  optional?: boolean;
}

export interface GrammarSpec {
  slots: GrammarSlot[];
  /**
   * Silence between slots. The PocketSphinx grammar search always allows silence and fillers
   * (breath, noise) between words, so `false` cannot forbid it there; it is a hint other
   * backends may honour.
   */
  optionalSilence?: boolean;
  /** A garbage loop of context-independent phones between slots, to absorb inserted speech. */
  allowInsertions?: boolean;
}

export interface FrameWindow {
  startFrame: number;
  /** Exclusive. */
  endFrame: number;
}

export interface PhoneSegment {
  phone: string;
  startFrame: number;
  /** Exclusive, 10 ms frames. */
  endFrame: number;
  /** Forced-alignment acoustic log-likelihood of the phone (natural log, summed over frames). */
  score: number;
  /** Best free phone-loop log-likelihood over the same frames. */
  loopScore?: number;
  /** Goodness of pronunciation: per-frame (score - loopScore), clamped to <= 0. */
  gop?: number;
}

export interface UnitSegment {
  /** Index into GrammarSpec.slots; -1 for silence, fillers and insertions. */
  slot: number;
  /** The aligned alternative's label, or `<sil>` / a filler name / `<ins>` for slot -1. */
  label: string;
  /** Index into the alternative's prons (0 for slot -1). */
  pron: number;
  startFrame: number;
  /** Exclusive. */
  endFrame: number;
  /** Acoustic log-likelihood of the whole unit (natural log). */
  score: number;
  /** Phone segments, when requested with `phones: true` (empty otherwise). */
  phones: PhoneSegment[];
}

/** The label of a unit of inserted phones (slot -1) in grammars that allow insertions. */
export const INSERTION_LABEL = '<ins>';

/** Silence and the models' noise units in phone segments (SIL, +NOISE+, <sil>, [NOISE]). */
export function isNonSpeech(phone: string): boolean {
  return phone === 'SIL' || /^[+<[]/.test(phone);
}

export type AlignFailure = 'no-match' | 'no-speech' | 'too-short';

export type AlignResult =
  | {
      ok: true;
      frames: number;
      units: UnitSegment[];
      /** The free phone loop over the same audio, when requested with `phoneLoop: true`. */
      loop?: PhoneSegment[];
    }
  | { ok: false; reason: AlignFailure; message: string };

/** The reader's voice, which a backend may normalise its features for. */
export interface VoiceOptions {
  /**
   * Median pitch of the reader over the whole reading, Hz (absent when unknown). Every pass
   * over one reading gets the same value (`withVoice`). PocketSphinx turns it into a vocal
   * tract length warp (sphinx/vtln.ts); a backend without such a front end ignores it.
   */
  speakerF0?: number;
}

/** What every pass over one reading states alike (`forReading`). */
export interface PassOptions extends VoiceOptions {
  /**
   * The reading the pass is one of (a number of its own per reading). Passes of one reading
   * over the same frames may share work that gives the same answer (sphinx: the frames' top-N
   * Gaussians); passes that state none, or different ones, share nothing.
   */
  reading?: number;
}

/** Options of the calls that take a window of the audio. */
export interface WindowOptions extends PassOptions {
  window?: FrameWindow;
}

export interface AlignOptions extends WindowOptions {
  phones?: boolean;
  gop?: boolean;
  /**
   * Also return the free phone loop over the audio (the reference GOP is computed against),
   * so a caller can see which phones were heard without a second pass over the audio.
   */
  phoneLoop?: boolean;
  /**
   * A check decode, not the reading's alignment: the word pass may prune word exits harder
   * (sphinx/engine.ts, CHECK_WORD_BEAMS), trading a little of its reach for less CPU, and its
   * optional slots pay the library's word insertion penalty (GRAMMAR_WIP).
   * The insertion and repetition checks decode a reading again to find what its alignment
   * could not place; the alignment itself keeps the wide beams.
   */
  quick?: boolean;
}

export interface RecognizeResult {
  text: string;
  words: { word: string; startFrame: number; endFrame: number }[];
  confidence: number | null;
}

export interface AcousticBackend {
  /**
   * Forced alignment of a slot grammar (a plain reference is one single-alternative slot per
   * word); with `phones: true` adds phone segments, with `gop: true` also loop scores and GOP.
   */
  align(lang: AcousticLang, pcm: Int16Array, grammar: GrammarSpec, opts?: AlignOptions): Promise<AlignResult>;
  /**
   * The phone pass of an alignment in a call of its own: `units` are the answer of an `align`
   * without phones on the same audio (or window), returned with the phone segments `align`
   * with `phones: true` would have given them. A caller can act on the words while it runs.
   */
  alignPhones(lang: AcousticLang, pcm: Int16Array, grammar: GrammarSpec, units: UnitSegment[], opts?: WindowOptions): Promise<AlignResult>;
  /** Free phone loop (context-independent phones) over the audio or a window. */
  phoneLoop(lang: AcousticLang, pcm: Int16Array, opts?: WindowOptions): Promise<PhoneSegment[]>;
  /** Free recognition (standalone ASR). */
  recognize(lang: AcousticLang, pcm: Int16Array): Promise<RecognizeResult>;
  /** Real-time progress against a reference: feed audio as it arrives, read how far the reader got. */
  openProgress(lang: AcousticLang, reference: AlignUnit[]): ProgressSession;
  /** The model's phone set and pronunciation lexicon look-up (dictionary words to pronunciations). */
  lexicon(lang: AcousticLang): Lexicon;
  close(): Promise<void>;
}

export interface Lexicon {
  phones: string[];
  lookup(word: string): string[][] | null;
}

export interface ProgressSession {
  push(pcm: Int16Array): Promise<ProgressUpdate>;
  finish(): Promise<ProgressUpdate>;
  close(): void;
}

export interface ProgressUpdate {
  /** Position reached in the reference (number of units read so far). */
  readUnits: number;
  /** Per reference unit: recognised so far. */
  matched: boolean[];
  audioMs: number;
  decodedMs: number;
}

/**
 * The backend with the reader's voice added to every call that decodes the reading, so an
 * engine states it once and passes the result wherever it passed the backend.
 */
export function withVoice(backend: AcousticBackend, voice: VoiceOptions): AcousticBackend {
  return voice.speakerF0 === undefined ? backend : withPassOptions(backend, voice);
}

let lastReading = Math.floor(Math.random() * 2 ** 40);

/** The backend with a reading of its own (`PassOptions.reading`) stated on every call that decodes. */
export function forReading(backend: AcousticBackend): AcousticBackend {
  return withPassOptions(backend, { reading: ++lastReading });
}

function withPassOptions(backend: AcousticBackend, common: PassOptions): AcousticBackend {
  return {
    align: (lang, pcm, grammar, opts = {}) => backend.align(lang, pcm, grammar, { ...common, ...opts }),
    alignPhones: (lang, pcm, grammar, units, opts = {}) => backend.alignPhones(lang, pcm, grammar, units, { ...common, ...opts }),
    phoneLoop: (lang, pcm, opts = {}) => backend.phoneLoop(lang, pcm, { ...common, ...opts }),
    recognize: (lang, pcm) => backend.recognize(lang, pcm),
    openProgress: (lang, reference) => backend.openProgress(lang, reference),
    lexicon: (lang) => backend.lexicon(lang),
    close: () => backend.close(),
  };
}
