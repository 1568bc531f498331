/**
 * Tenant voice profiles: profile adaptation of a system voice, not neural voice cloning.
 * From a reference recording we measure what our engines can reproduce — F0 level and range,
 * speaking rate, and a coarse timbre figure — and synthesise with the closest base voice
 * shaped to those numbers. The speaker's identity (voice quality, accent, spectral detail) is
 * not copied.
 *
 * - F0: trackPitch (pYIN), median and 10th–90th percentile spread (semitones) of voiced frames.
 * - Rate: speech time = 10 ms frames within 35 dB of the loudest, with gaps under 150 ms
 *   bridged (stop closures, not pauses); units = Han characters (zh) or words (en) of the
 *   prompt text; rate = units / speech time.
 * - Timbre: mean spectral centroid (0–5 kHz, 32 ms Hann frames) of voiced frames, compared with
 *   a typical speaker of the same gender.
 */
import { invalid } from '../errors.js';
import { trackPitch } from '../dsp/pitch.js';
import { spectralCentroid } from './dsp/spectrum.js';
import type { SynthesisLanguage, VoiceProfile } from './types.js';
import { SYSTEM_VOICES, type VoiceDef } from './voices.js';

/** Typical spectral centroid of voiced speech per gender, Hz (measured on the shared recordings). */
const REF_CENTROID = { female: 1000, male: 850 };
/** F0 spread (p90/p10, semitones) the engines produce at range 1. */
export const BASE_RANGE_ST = { zh: 6.9, en: 3 };
/** Syllables (zh) or words (en) per second of speech that the engines produce at rate 1. */
export const BASE_RATE = { zh: 3.3, en: 3.2 };

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))];
}

/** Units spoken in the prompt: Han characters for Mandarin, words otherwise. */
export function promptUnits(text: string, language: SynthesisLanguage): number {
  if (language === 'zh-CN') return (text.match(/\p{Script=Han}/gu) ?? []).length;
  return (text.match(/[\p{L}\p{N}']+/gu) ?? []).length;
}

/** Seconds of speech in the signal, pauses of 150 ms or more excluded. */
export function speechSeconds(x: Float32Array | Int16Array, sampleRate: number): number {
  const hop = Math.round(sampleRate * 0.01);
  const n = Math.floor(x.length / hop);
  const db = new Float32Array(n);
  let max = -Infinity;
  for (let i = 0; i < n; i++) {
    let e = 0;
    for (let j = i * hop; j < (i + 1) * hop; j++) e += x[j] * x[j];
    db[i] = 10 * Math.log10(e / hop + 1e-12);
    if (db[i] > max) max = db[i];
  }
  let active = 0;
  let gap = 0;
  let started = false;
  for (let i = 0; i < n; i++) {
    if (db[i] >= max - 35) {
      if (started && gap > 0 && gap < 15) active += gap;
      active++;
      gap = 0;
      started = true;
    } else if (started) gap++;
  }
  return active * 0.01;
}

/**
 * @example
 *   const profile = buildVoiceProfile(pcm16k, 16000, '今天天气很好', 'zh-CN');
 */
export function buildVoiceProfile(
  pcm: Int16Array | Float32Array,
  sampleRate: number,
  promptText: string,
  language: SynthesisLanguage,
): VoiceProfile {
  const { f0, hopMs } = trackPitch(pcm, sampleRate);
  const voiced = [...f0].filter((v) => v > 0).sort((a, b) => a - b);
  if (voiced.length < 20) throw new Error('too little voiced speech in the reference recording');
  const medianF0 = percentile(voiced, 0.5);
  const f0RangeSt = 12 * Math.log2(percentile(voiced, 0.9) / percentile(voiced, 0.1));
  const units = promptUnits(promptText, language);
  const speech = speechSeconds(pcm, sampleRate);
  if (units === 0 || speech <= 0) throw new Error('prompt text or speech is empty');
  const gender = medianF0 < 165 ? 'male' : 'female';
  const centroidHz = spectralCentroid(pcm, sampleRate, f0, hopMs / 1000);
  return {
    language,
    medianF0,
    f0RangeSt,
    rate: units / speech,
    timbreRatio: centroidHz / REF_CENTROID[gender],
    centroidHz,
    gender,
  };
}

/** Reference length limits (spec, Limits: 3–15 s recommended). */
export const REFERENCE_SEC = { min: 1, recommendedMin: 3, recommendedMax: 15, max: 60 };

/**
 * Accepts 3–15 s silently, 1–3 s and 15–60 s with a warning (the estimates are noisier or the
 * upload needlessly long), and refuses the rest with 40001.
 */
export function checkReferenceDuration(sec: number): string[] {
  if (!(sec >= REFERENCE_SEC.min) || sec > REFERENCE_SEC.max) {
    throw invalid(`reference audio must last ${REFERENCE_SEC.min}-${REFERENCE_SEC.max} s (3-15 s recommended); got ${sec.toFixed(1)} s`);
  }
  if (sec < REFERENCE_SEC.recommendedMin || sec > REFERENCE_SEC.recommendedMax) {
    return [`reference audio lasts ${sec.toFixed(1)} s; 3-15 s of clear speech is recommended`];
  }
  return [];
}

/** The system voice of the profile's gender and language whose median F0 is nearest. */
export function closestBaseVoice(profile: VoiceProfile): VoiceDef {
  const candidates = SYSTEM_VOICES.filter((v) => v.gender === profile.gender && v.languages.includes(profile.language) && v.zhEngine === 'ekho');
  let best = candidates[0];
  for (const v of candidates) if (Math.abs(Math.log(v.f0 / profile.medianF0)) < Math.abs(Math.log(best.f0 / profile.medianF0))) best = v;
  return best;
}

/** The base voice reshaped to the profile's F0 level and range, rate and (bounded) timbre. */
export function adaptVoice(base: VoiceDef, p: VoiceProfile): VoiceDef {
  const zh = p.language === 'zh-CN';
  return {
    ...base,
    gender: p.gender,
    f0: p.medianF0,
    range: Math.min(2, Math.max(0.4, p.f0RangeSt / (zh ? BASE_RANGE_ST.zh : BASE_RANGE_ST.en))),
    rate: Math.min(1.8, Math.max(0.5, p.rate / (zh ? BASE_RATE.zh : BASE_RATE.en))),
    // Only a mild formant move: large shifts from a centroid estimate would do more harm than good.
    timbre: Math.min(1.08, Math.max(0.92, Math.sqrt(p.timbreRatio))),
  };
}
