/**
 * The English read-aloud and connected-speech engine (en-US, en-GB; kinds word, sentence,
 * passage, alpha, connected). One flow for every kind: plan the text (lexicon, all accepted
 * pronunciations, optional word slots) → forced alignment with phones and GOP → frame signal
 * (energy, F0) → insertions and repetitions where the alignment shows signs of extra speech
 * (read-aloud kinds only) → fitted scores → typed assessment. Audio that does not match the text gives
 * low scores and warnings, never an exception; text errors throw invalid() (40001).
 */
import { forReading, type AcousticBackend, type AlignResult, type PhoneSegment } from '../../acoustic/types.js';
import type { DecodedAudio } from '../../audio/decode.js';
import { analyzeQuality, QUALITY_WARNINGS } from '../../audio/quality.js';
import type { EvaluationConfig } from '../../evaluation/config.js';
import { invalid } from '../../errors.js';
import { loadEnglishLexicon, type EnglishLexicon } from '../lexicon/index.js';
import { loadEnglishScoringModel, type EnglishScoringModel } from '../scoring-model/model.js';
import { assessConnectedSpeech, type ConnectedResult } from '../connected/assess.js';
import { alignReading, alignSkipped } from './align.js';
import { buildAssessment } from './build.js';
import { findExtraSpeech, placeExtraSpeech, startRepeatDecode, type RepeatCall } from './insertions.js';
import { readEvidence, rescueSkipped, yieldingWords, type ReadingEvidence } from './evidence.js';
import { grammarOf, planReading, withCustomPronunciations, type ReadingPlan } from './plan.js';
import { scoreReading } from './score.js';
import { measureSignal, type SignalFrames } from './signal.js';
import type { EnglishAssessment } from './types.js';
import type { Assessment } from '../../assessment/types.js';
import { toAssessment } from './assessment.js';
import { LOW_PHONE_SCORE } from './phones.js';
import { melSpectra } from '../../dsp/mel-segments.js';
import { loadPhoneSpectrumModel, withPhoneOpinions, type PhoneSpectrumModel } from '../phone-spectrum/classifier.js';

export interface EnglishEngineDeps {
  backend: AcousticBackend;
  lexicon?: EnglishLexicon;
  model?: EnglishScoringModel;
  /** The whole band's phone classifier (src/en/phone-spectrum); the shipped one by default. */
  phoneSpectrum?: PhoneSpectrumModel;
}

export interface ReadingOptions {
  /** Caller-supplied pronunciations, word → ARPAbet strings, accepted beside the lexicon's. */
  customPronunciations?: Readonly<Record<string, string[]>>;
  /** Look for insertions and repetitions (insertions.ts); default true. */
  extraSpeech?: boolean;
}

export interface EnglishEngine {
  /** The shared Assessment, for src/assessment's presentReadAloud. */
  assess(config: EvaluationConfig, audio: DecodedAudio, opts?: ReadingOptions): Promise<Assessment>;
  /** Everything measured (scores before slack), for tools, reports and tests. */
  inspect(config: EvaluationConfig, audio: DecodedAudio, opts?: ReadingOptions): Promise<EnglishAssessment>;
  assessConnected(config: EvaluationConfig, audio: DecodedAudio): Promise<ConnectedResult>;
  /** The evidence one reading yields before scoring (plan, alignment with rescue, signal, loop), for tools. */
  analyse(config: EvaluationConfig, audio: DecodedAudio, opts?: ReadingOptions): Promise<AnalysedReading>;
}

/** Everything one reading yields before presentation; shared by both kinds. */
export interface AnalysedReading {
  plan: ReadingPlan;
  evidence: ReadingEvidence;
  signal: SignalFrames;
  /** The free phone loop over the audio: GOP, and what was heard for low-scored phones. */
  loop: PhoneSegment[];
  /** The repeat decode, when `inspect` started it on the word pass's answer (findRepetitions). */
  repeats: RepeatCall | null;
  /** The recording's log mel spectra, for the whole band's opinion of the phones; null on telephone-band audio. */
  spectra: Float32Array[] | null;
}

export function createEnglishEngine(deps: EnglishEngineDeps): EnglishEngine {
  let lexicon: Promise<EnglishLexicon> | null = deps.lexicon ? Promise.resolve(deps.lexicon) : null;
  const model = deps.model ?? loadEnglishScoringModel();
  const phoneSpectrum = deps.phoneSpectrum ?? loadPhoneSpectrumModel();
  const getLexicon = () => (lexicon ??= loadEnglishLexicon());

  /** `backend`: the one every pass over this reading goes to (a reading of its own: PassOptions.reading). */
  async function analyse(config: EvaluationConfig, audio: DecodedAudio, opts: ReadingOptions = {}, early = false, backend = forReading(deps.backend)): Promise<AnalysedReading> {
    if (config.language !== 'en-US' && config.language !== 'en-GB') throw invalid(`the English engine does not score ${config.language}`);
    const kind = config.coreType;
    if (kind !== 'word' && kind !== 'sentence' && kind !== 'passage' && kind !== 'alpha' && kind !== 'connected') {
      throw invalid(`coreType ${kind} is not a read-aloud kind of the English engine`);
    }
    const plan = withCustomPronunciations(planReading(await getLexicon(), config.referenceText, kind, config.language), opts.customPronunciations ?? {});
    // A reading whose word pass read every word needs no rescue, so the repeat decode can start
    // on the word pass's answer, beside the phone pass (findRepetitions).
    let repeats: RepeatCall | null = null;
    const startRepeats = (words: AlignResult & { ok: true }) => {
      const first = readEvidence(plan, words);
      if (first.words.every((w) => w.status === 'read')) repeats = startRepeatDecode(backend, audio.pcm, plan, first);
    };
    const aligning = alignReading(backend, audio.pcm, plan.grammar, early ? startRepeats : undefined);
    // The signal is measured in this thread while the backend's workers align, and on wideband
    // audio the spectra the whole band's opinion of each phone is read from (phone-spectrum).
    const signal = measureSignal(audio.pcm);
    const spectra = audio.lowSampleRate || signal.narrowband ? null : melSpectra(audio.pcm);
    const { result, loop } = await aligning;
    let evidence = readEvidence(plan, result);
    if (evidence.ok && evidence.words.some((w) => w.status === 'omitted')) {
      const required = grammarOf(plan.entries, false);
      const first = await alignSkipped(backend, audio.pcm, required, readSpans(evidence));
      evidence = rescueSkipped(plan, evidence, first.result, first.windows);
      const yielding = new Set(yieldingWords(plan, evidence, first.result, first.windows));
      if (yielding.size > 0) {
        const relaxed = { ...required, slots: required.slots.map((slot, i) => (yielding.has(i) ? { ...slot, optional: true } : slot)) };
        const again = await alignSkipped(backend, audio.pcm, relaxed, readSpans(evidence));
        evidence = rescueSkipped(plan, evidence, again.result, again.windows);
      }
    }
    return { plan, evidence: spectra ? withPhoneOpinions(evidence, phoneSpectrum, spectra) : evidence, signal, loop, repeats, spectra };
  }

  const engine: EnglishEngine = {
    analyse,
    async assess(config, audio, opts) {
      return toAssessment(await engine.inspect(config, audio, opts), config);
    },
    async inspect(config, audio, opts) {
      const extraSpeech = opts?.extraSpeech !== false;
      // The passes over this reading's frames may share their scoring.
      const backend = forReading(deps.backend);
      const analysed = await analyse(config, audio, opts, extraSpeech, backend);
      const { plan, signal, loop } = analysed;
      const found = extraSpeech ? await findExtraSpeech(backend, audio.pcm, plan, analysed.evidence, signal.energyDb, loop, analysed.repeats) : [];
      // The words around extra speech give its frames up before they are scored.
      const placed = placeExtraSpeech(analysed.evidence, found);
      const { extra } = placed;
      // Words that gave frames up to extra speech are heard again over their new spans.
      const evidence = found.length > 0 && analysed.spectra ? withPhoneOpinions(placed.evidence, phoneSpectrum, analysed.spectra) : placed.evidence;
      const scored = scoreReading(evidence, signal, model, loop);
      // What the loop heard is judged only when some phone scores low (as documented).
      const lowPhones = scored.words.some((w) => w.phones.some((s) => s * 100 < LOW_PHONE_SCORE));
      return buildAssessment({
        config, plan, evidence, scored, extra, loop: evidence.ok && lowPhones ? loop : [], durationSec: audio.durationSec, warnings: warningsFor(audio, evidence),
        narrowband: audio.lowSampleRate || signal.narrowband === true,
      });
    },
    async assessConnected(config, audio) {
      const reading = await analyse(config, audio);
      const scored = scoreReading(reading.evidence, reading.signal, model, reading.loop);
      return assessConnectedSpeech(reading, scored, warningsFor(audio, reading.evidence));
    },
  };
  return engine;
}

/** Span of each read word, null for a skipped one (where rescue windows may go). */
function readSpans(ev: ReadingEvidence) {
  return ev.words.map((w) => (w.status === 'read' ? { startFrame: w.startFrame, endFrame: w.endFrame } : null));
}

/**
 * Audio quality warnings (1001-1005), plus 1001 when nothing could be aligned to the text and
 * 1005 when more than half of the words were skipped (the spec's "suspected truncation").
 */
function warningsFor(audio: DecodedAudio, ev: ReadingEvidence): { code: number; message: string }[] {
  const out = analyzeQuality(audio.pcm, audio.sampleRate).warnings.map((w) => ({ code: w.code, message: w.message }));
  const has = (code: number) => out.some((w) => w.code === code);
  if (!ev.ok && !has(1001)) out.push({ ...QUALITY_WARNINGS.NO_SPEECH });
  const skipped = ev.words.filter((w) => w.status === 'omitted').length;
  if (ev.ok && skipped * 2 > ev.words.length && !has(1005)) out.push({ ...QUALITY_WARNINGS.INCOMPLETE });
  return out;
}
