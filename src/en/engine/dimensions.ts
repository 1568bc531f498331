/**
 * English score scales: the fitted model's expert scales (speechocean762 words and utterances
 * 0-10; phones are probabilities of being judged correct) onto the 0-100 scale of the shared assessment core, which then applies
 * slack, gradeBand weights, scale and precision (src/assessment/shaping.ts).
 */

/**
 * Expert scales to 0-100. speechocean762's raters give 9-10 to native-like reading and
 * rarely a full 10 (train half: median utterance total 8); the top of the scale is reached
 * at EXPERT_FULL so that reading the raters call excellent is not held below 100.
 */
export const EXPERT_FULL = { word: 9.5, utterance: 9 } as const;

export function fromExpert(score: number, full: number): number {
  return clamp100((score / full) * 100);
}

export function clamp100(v: number): number {
  return Math.max(0, Math.min(100, Number.isFinite(v) ? v : 0));
}

/**
 * Acceptability of a word (or phone) from its GOP alone, 0-100: a logistic around a GOP level
 * that separates native readings of the right words (word means of about −0.5 to −2.5 nats
 * per frame on LibriVox, LJ Speech and Harvard sentences) from speech of other words forced
 * onto the text (about −4.5 to −9). The fitted speechocean762 maps rank learners well but
 * were fitted on speech that is nearly always the right word, so they cannot tell a
 * substituted word from an accented one; this cap can (Witt & Young 2000 also reject phones
 * by a GOP threshold). `slack` moves the threshold by up to one nat per frame.
 */
export const WORD_GOP_THRESHOLD = -4;
export const PHONE_GOP_THRESHOLD = -6;
const GOP_WIDTH = 0.6;

export function gopAcceptability(gop: number, threshold: number, slack = 0): number {
  return 100 / (1 + Math.exp(-(gop - (threshold - slack)) / GOP_WIDTH));
}

/** Spread of GOP over one frame (nats): the phone statistics' typical 1.7 over a typical 11-frame phone, times √11. */
const FRAME_GOP_SD = 5.6;
/** Words of this many frames or more are judged by the threshold itself. */
const TYPICAL_WORD_FRAMES = 30;
const MAX_LENIENCY = 1.5;

/**
 * How much lower the GOP threshold lies for a short word: a mean over fewer frames is noisier
 * (its spread falls as 1/√frames), so a short function word ("a", "the", 4-10 frames) misses
 * the threshold by chance far more often than a content word of 30 frames or more. The
 * threshold is lowered by the excess of one standard error over that of a typical word,
 * FRAME_GOP_SD × (1/√frames − 1/√TYPICAL_WORD_FRAMES), at most MAX_LENIENCY nats; words of
 * typical length and longer are judged as before.
 */
export function shortWordLeniency(frames: number): number {
  if (frames <= 0) return 0;
  return Math.min(MAX_LENIENCY, Math.max(0, FRAME_GOP_SD * (1 / Math.sqrt(frames) - 1 / Math.sqrt(TYPICAL_WORD_FRAMES))));
}
