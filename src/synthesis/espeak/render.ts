/**
 * One eSpeak NG run shaped to a plan: voice variant, rate (words per minute from the
 * calibration table), base pitch (the variant's measured pitch table), and — only where eSpeak cannot do it itself — a single TD-PSOLA pass that
 * stretches below the slowest rate it reads well (ESPEAK_SLOWEST_WPM), raises F0 above its top pitch, or imposes Mandarin tones
 * (espeak/tones.ts). That pass needs the F0 track, so plain English and Mandarin read with
 * eSpeak's own tones skip it.
 */
import { trackPitch } from '../../dsp/pitch.js';
import { psola } from '../dsp/psola.js';
import type { EngineAudio } from '../types.js';
import { espeakMaxF0, espeakPitchFor, ESPEAK_SLOWEST_WPM, ESPEAK_WPM_STANDARD } from './calibration.js';
import type { EspeakBackend, EspeakVariant, EspeakVoice } from './engine.js';
import { tonePitch, type ToneTarget } from './tones.js';

export interface EspeakPlan {
  variant: EspeakVariant;
  /** Rate multiplier relative to the standard rate of `charsPerSec`. */
  rate: number;
  /** Target median F0 and formant factor (F0 and tempo are pre-divided by it). */
  f0: number;
  formant: number;
  /** F0 range multiplier for imposed tones. */
  range: number;
  /** Standard characters per second (prose 3, classical poem 1.75). */
  charsPerSec: number;
  /** Prose characters per second (the calibration's reference). */
  proseCharsPerSec: number;
}

export interface EspeakRender extends EngineAudio {
  /** False when Mandarin tones were requested but eSpeak gave no word timings (Debian build). */
  tonesImposed: boolean;
}

export async function renderEspeak(
  backend: EspeakBackend,
  text: string,
  voice: EspeakVoice,
  p: EspeakPlan,
  tones?: ToneTarget[],
): Promise<EspeakRender> {
  const wpm = (ESPEAK_WPM_STANDARD[voice] * (p.charsPerSec / p.proseCharsPerSec) * p.rate) / p.formant;
  const target = p.f0 / p.formant;
  const variant = p.variant;
  const floor = ESPEAK_SLOWEST_WPM[voice];
  const out = await backend.synth(text, { voice, variant, rateWpm: Math.max(floor, wpm), pitch: espeakPitchFor(voice, variant, target) });
  const stretch = wpm < floor * 0.98 ? floor / wpm : 1;
  const raise = Math.max(1, target / espeakMaxF0(voice, variant));
  const toned = tones !== undefined && out.words !== undefined && out.words.length === tones.length && tones.length > 0;
  if (stretch === 1 && raise === 1 && !toned) return { ...out, tonesImposed: tones === undefined };
  // eSpeak's F0 stays within about half an octave of the level it was asked for, so a narrow
  // search band (fewer lags in the tracker's correlation) halves the tracking time.
  const produced = espeakMaxF0(voice, variant) > target ? target : espeakMaxF0(voice, variant);
  const { f0, hopMs } = trackPitch(out.samples, out.sampleRate, { minHz: Math.max(50, produced * 0.55), maxHz: Math.min(600, produced * 1.8) });
  const pitch = toned ? tonePitch(f0, hopMs / 1000, out.words!, tones!, target, p.range) : (_t: number, f: number) => f * raise;
  const samples = psola(out.samples, { sampleRate: out.sampleRate, f0, hopSec: hopMs / 1000, timeScale: () => stretch, pitch });
  return { samples, sampleRate: out.sampleRate, tonesImposed: tones === undefined || toned };
}
