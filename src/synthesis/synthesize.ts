/**
 * One synthesis, in the calling thread: voice lookup and adaptation, engine choice, rate and
 * pitch planning, engine run, formant shift, loudness, encoding. The service (service.ts) runs
 * this inside worker threads; tests and benchmarks may call it directly.
 */
import { encodeAudio } from '../audio/encode.js';
import { invalid } from '../errors.js';
import { trackPitch } from '../dsp/pitch.js';
import { synthesizeEkho } from './ekho/engine.js';
import type { EkhoStore } from './ekho/store.js';
import type { EspeakBackend, EspeakVoice } from './espeak/engine.js';
import { renderEspeak, type EspeakPlan } from './espeak/render.js';
import { toneTargets } from './espeak/tones.js';
import { fadeEdges, peakGain, toInt16 } from './dsp/join.js';
import { resampleByStep } from './dsp/resample.js';
import {
  CHARS_PER_SEC,
  EMOTION_EFFECT,
  emoVectorWarnings,
  pitchFactor,
  resolveEmotion,
  speedFactor,
  volumePeak,
} from './expression.js';
import { adaptVoice, promptUnits, speechSeconds } from './profile.js';
import type { EngineAudio, SynthesisRequest, SynthesisResult } from './types.js';
import { findSystemVoice, formantScale, type EngineName, type VoiceDef } from './voices.js';
import { toEspeakPinyin, toZhTokens, type ZhToken } from './zh/syllables.js';

export interface Engines {
  espeak: EspeakBackend;
  ekho: EkhoStore | null;
}

/** Internal knobs not reachable from HTTP: tests and benchmarks pick the engine. */
export interface SynthesisOverrides {
  engine?: EngineName;
  /** Multipliers of the planned F0 and rate (the profile loop's corrections). */
  f0Scale?: number;
  rateScale?: number;
}

/** Ekho slots are shorter than 1/(characters per second) by this factor, which pays for pauses and phrase-final lengthening. */
const EKHO_SLOT_RATE = 1.12;

interface Plan {
  voice: VoiceDef;
  engine: EngineName;
  /** Multiplier of the standard rate (speed, voice, emotion). */
  rate: number;
  f0: number;
  range: number;
  formant: number;
  warnings: string[];
}

function plan(req: SynthesisRequest, overrides: SynthesisOverrides, ekhoLoaded: boolean): Plan {
  const base = findSystemVoice(req.voice);
  if (!base) throw invalid(`unknown voice: ${req.voice}`);
  const voice = req.profile ? adaptVoice(base, req.profile) : base;
  const zh = req.language === 'zh-CN';
  const warnings = req.emoVector && !req.emotion ? emoVectorWarnings(req.emoVector) : [];
  let engine: EngineName = zh ? (overrides.engine ?? voice.zhEngine) : 'espeak';
  if (engine === 'ekho' && !ekhoLoaded) {
    // Documented fallback: without the recorded voice, Mandarin is read by eSpeak NG.
    engine = 'espeak';
    warnings.push('the recorded Mandarin voice is not installed; eSpeak NG read the text');
  }
  const emotion = resolveEmotion(req);
  const effect = EMOTION_EFFECT[emotion];
  const emotionRate = emotion === 'energetic' && req.speedExplicit ? 1 : effect.rate;
  const f0 = voice.f0 * pitchFactor(req.pitch) * effect.f0 * (overrides.f0Scale ?? 1);
  const formant = formantScale(voice, engine);
  return {
    voice,
    engine,
    rate: speedFactor(req.speed) * voice.rate * emotionRate * (overrides.rateScale ?? 1),
    f0,
    range: voice.range * effect.range,
    formant,
    warnings,
  };
}

function espeakPlan(p: Plan, charsPerSec: number): EspeakPlan {
  return { variant: p.voice.variant, rate: p.rate, f0: p.f0, formant: p.formant, range: p.range, charsPerSec, proseCharsPerSec: CHARS_PER_SEC.prose };
}

async function runZh(engines: Engines, tokens: ZhToken[], p: Plan, charsPerSec: number, warnings: string[]): Promise<EngineAudio> {
  if (p.engine === 'espeak' || !engines.ekho) {
    const out = await renderEspeak(engines.espeak, toEspeakPinyin(tokens), 'cmn-latn-pinyin', espeakPlan(p, charsPerSec), toneTargets(tokens));
    if (!out.tonesImposed) warnings.push("Mandarin tones follow eSpeak's own intonation model for this request");
    return out;
  }
  const rate = p.rate / p.formant;
  const out = await synthesizeEkho(engines.ekho, tokens, {
    syllablesPerSec: charsPerSec * EKHO_SLOT_RATE * rate,
    rateFactor: rate,
    medianF0: p.f0 / p.formant,
    rangeScale: p.range,
  });
  warnings.push(...out.warnings);
  return out;
}

type Rendered = { pcm: Int16Array; sampleRate: number; warnings: string[] };

/** Relative error above which a profile voice is rendered a second time. */
const PROFILE_TOLERANCE = 0.03;

/**
 * Renders the request to 16-bit PCM at the engine's rate (before encoding). With a profile the
 * output is measured like the reference was (median F0, rate per second of speech) and, when
 * either is more than 3% off (the text's tones and word lengths move both), rendered once more
 * with the measured correction: a closed loop that lands the voice on the speaker's figures.
 */
export async function renderSpeech(req: SynthesisRequest, engines: Engines, overrides: SynthesisOverrides = {}): Promise<Rendered> {
  const first = await renderOnce(req, engines, overrides);
  const profile = req.profile;
  if (!profile) return first;
  const units = promptUnits(req.text, req.language);
  const got = measureVoice(first, units);
  // Targets include the request's own pitch and speed settings.
  const wantF0 = profile.medianF0 * pitchFactor(req.pitch);
  const wantRate = profile.rate * speedFactor(req.speed);
  const f0Err = got.medianF0 > 0 ? wantF0 / got.medianF0 : 1;
  const rateErr = got.rate > 0 ? wantRate / got.rate : 1;
  if (Math.abs(f0Err - 1) <= PROFILE_TOLERANCE && Math.abs(rateErr - 1) <= PROFILE_TOLERANCE) return first;
  // Bounded: a wild error means the measurement failed (e.g. a prompt that is mostly Latin letters).
  const bound = (x: number) => Math.min(1.25, Math.max(0.8, x));
  return renderOnce(req, engines, {
    ...overrides,
    f0Scale: (overrides.f0Scale ?? 1) * bound(f0Err),
    rateScale: (overrides.rateScale ?? 1) * bound(rateErr),
  });
}

function measureVoice(r: Rendered, units: number): { medianF0: number; rate: number } {
  const voiced = [...trackPitch(r.pcm, r.sampleRate).f0].filter((f) => f > 0).sort((a, b) => a - b);
  const speech = speechSeconds(r.pcm, r.sampleRate);
  return { medianF0: voiced[voiced.length >> 1] ?? 0, rate: speech > 0 ? units / speech : 0 };
}

async function renderOnce(req: SynthesisRequest, engines: Engines, overrides: SynthesisOverrides): Promise<Rendered> {
  const p = plan(req, overrides, engines.ekho !== null);
  const warnings = [...p.warnings];
  let audio: EngineAudio;
  if (req.language === 'zh-CN') {
    const parsed = toZhTokens(req.text, req.pinyin);
    const genre = req.genre ?? (parsed.genre === 'classical_poem' ? 'classical_poem' : 'prose');
    if (parsed.skipped.length) warnings.push(`not read: ${[...new Set(parsed.skipped)].join(' ')}`);
    audio = await runZh(engines, parsed.tokens, p, CHARS_PER_SEC[genre], warnings);
  } else {
    const voice: EspeakVoice = req.language === 'en-GB' ? 'en-gb' : 'en-us';
    audio = await renderEspeak(engines.espeak, req.text, voice, espeakPlan(p, CHARS_PER_SEC.prose));
  }
  const samples = fadeEdges(p.formant !== 1 ? resampleByStep(audio.samples, p.formant) : audio.samples, audio.sampleRate);
  return { pcm: toInt16(samples, peakGain(samples, volumePeak(req.volume))), sampleRate: audio.sampleRate, warnings };
}

/** Full synthesis: render then encode into the requested format and sample rate. */
export async function synthesizeWith(
  engines: Engines,
  req: SynthesisRequest,
  overrides: SynthesisOverrides = {},
): Promise<SynthesisResult> {
  const r = await renderSpeech(req, engines, overrides);
  const outRate = req.sampleRate ?? r.sampleRate;
  const audio = await encodeAudio(r.pcm, r.sampleRate, req.format, { outSampleRate: outRate });
  return { audio, format: req.format, sampleRate: outRate, durationSec: r.pcm.length / r.sampleRate, warnings: r.warnings };
}
