/**
 * Measured behaviour of eSpeak NG (WebAssembly build 0.3.5, 22 050 Hz), used to reach a
 * target median F0 and speaking rate. Re-measure with `npm run bench:tts -- --calibrate`
 * after changing the eSpeak build.
 *
 * F0: median F0 (trackPitch, voiced frames) of two test sentences per voice at base-pitch
 * parameter 0, 25, 50, 75, 99.
 * Rate: the Mandarin voice reads about 0.0207 characters per second per wpm (pauses included;
 * 1.66 at 80 wpm, 3.61 at 175, 5.37 at 250), so the spec's prose rate of 3 per second is about
 * 145 wpm. English standard rate: 165 wpm.
 */
import type { EspeakVoice } from './engine.js';

const PITCH_PARAMS = [0, 25, 50, 75, 99];
const MEDIAN_F0: Record<EspeakVoice, number[]> = {
  'en-us': [75, 87, 102, 131, 169],
  'en-gb': [75, 87, 102, 131, 169],
  'cmn-latn-pinyin': [62, 76, 90, 118, 158],
};

export const ESPEAK_WPM_STANDARD: Record<EspeakVoice, number> = {
  'en-us': 165,
  'en-gb': 165,
  'cmn-latn-pinyin': 145,
};

/** Base-pitch parameter (0..99) whose output has about `targetHz` median F0 (clamped). */
export function espeakPitchFor(voice: EspeakVoice, targetHz: number): number {
  const f = MEDIAN_F0[voice];
  if (targetHz <= f[0]) return 0;
  for (let i = 1; i < f.length; i++) {
    if (targetHz <= f[i]) {
      const a = Math.log(f[i - 1]);
      const b = Math.log(f[i]);
      return PITCH_PARAMS[i - 1] + ((Math.log(targetHz) - a) / (b - a)) * (PITCH_PARAMS[i] - PITCH_PARAMS[i - 1]);
    }
  }
  return 99;
}

/** Highest median F0 eSpeak reaches on its own, Hz. */
export function espeakMaxF0(voice: EspeakVoice): number {
  const f = MEDIAN_F0[voice];
  return f[f.length - 1];
}
