/**
 * Mandarin tone targets shared by both engines: stylised contours on Chao's five-level scale
 * mapped to F0 around a speaker's median.
 */

/** Neutral tone: a short level pitch set by the preceding tone (Chao 1968), in Chao levels. */
const NEUTRAL_LEVEL: Record<number, number> = { 1: 2.5, 2: 3, 3: 4, 4: 1.5, 5: 2.5 };

/**
 * Stylised tone contours on Chao's five-level scale (Chao 1930, "A system of tone letters"):
 * 55, 35, 214 (21 when not phrase-final), 51 (reaching 1.5: the fall rarely hits the floor in
 * running speech). u is the position in the syllable, 0..1; the result is a level, 1..5.
 */
export function chaoLevel(tone: number, u: number, phraseFinal: boolean, prevTone: number): number {
  switch (tone) {
    case 1:
      return 5;
    case 2:
      return 3 + 2 * u * u;
    case 3:
      if (!phraseFinal) return 2 - u;
      return u < 0.6 ? 2 - (u / 0.6) * 1.2 : 0.8 + ((u - 0.6) / 0.4) * 2.7;
    case 4:
      return 5 - 3.5 * u;
    default:
      return NEUTRAL_LEVEL[prevTone] ?? 2.5;
  }
}

/** Semitones per Chao level at range 1: five levels span about 9 st, a typical tonal range. */
const ST_PER_LEVEL = 2.2;
/** The Chao level that lands on the target median F0 in running speech (measured: tones 1, 2 and 4 spend most time high). */
const CENTRE_LEVEL = 4.2;

/** F0 in Hz for a Chao level, around `medianF0` (Hz), with the range multiplier `range`. */
export function toneF0(medianF0: number, level: number, range: number): number {
  return medianF0 * Math.pow(2, ((level - CENTRE_LEVEL) * ST_PER_LEVEL * range) / 12);
}
