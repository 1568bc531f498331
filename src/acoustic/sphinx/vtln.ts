/**
 * Vocal tract length normalisation (VTLN) for the PocketSphinx models, chosen from the reader's
 * pitch. A shorter vocal tract (most women, children) puts every formant higher than the
 * voices a model was mostly trained on, so each frame fits the model worse and correct speech
 * reads as mispronounced or skipped. Scaling the filterbank's frequency axis by 1/warp (the library's
 * `inverse_linear` warp, decoder.ts `decode`) moves the formants back.
 *
 * The warp comes from the median pitch: (f0 / referenceHz)^exponent, kept in [min, max] and
 * rounded to 1/WARP_STEPS. Across speakers formants scale with about the 0.3rd power of the pitch
 * (adult men and women differ by a factor of about 1.7 in pitch and 1.15-1.2 in formants), and
 * a reader at the reference pitch is decoded as before. The reference is the model's: the
 * pitch below which a voice needs no warp (docs/acoustic.md, "Speaker normalisation").
 */
import type { AcousticLang } from '../types.js';

export interface WarpRule {
  referenceHz: number;
  exponent: number;
  min: number;
  max: number;
}

/** Warps are rounded to 1/WARP_STEPS (0.02): each decoder keeps one front end per warp it has seen. */
export const WARP_STEPS = 50;

/**
 * Per model. English has none, and the English engine states no voice: on speechocean762 (half
 * of its speakers children) the warp raised the train half's cross-validated phone correlation
 * but lowered the test half's (docs/acoustic.md, "Speaker normalisation").
 */
export const WARP_RULES: Partial<Record<AcousticLang, WarpRule>> = {
  zh: { referenceHz: 120, exponent: 0.3, min: 1, max: 1.4 },
};

/** The warp for a reader of median pitch `speakerF0` (1, no warp, when it is unknown or the model has no rule). */
export function warpFor(lang: AcousticLang, speakerF0: number | undefined): number {
  const rule = WARP_RULES[lang];
  if (!rule || speakerF0 === undefined || !Number.isFinite(speakerF0) || speakerF0 <= 0) return 1;
  const warp = Math.min(rule.max, Math.max(rule.min, Math.pow(speakerF0 / rule.referenceHz, rule.exponent)));
  return Math.round(warp * WARP_STEPS) / WARP_STEPS;
}
