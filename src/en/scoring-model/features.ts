/**
 * Feature vectors of the English scoring model: the same functions feed the fitting script
 * (tools/train-en-so762.ts, speechocean762 train half) and the engine at run time, so the
 * model always sees what it was fitted on. Evidence is GOP (nats per frame, <= 0), durations
 * (10 ms frames), what the free phone loop heard over each phone, omissions, pauses, rate,
 * stress prominence and pitch range. Pure.
 */
import { isVowel } from '../lexicon/index.js';
import type { PhoneSegment } from '../../acoustic/types.js';
import type { PhoneEvidence, ReadingEvidence, WordEvidence } from '../engine/evidence.js';
import type { FluencyMeasures } from '../engine/fluency.js';
import type { IntonationMeasures } from '../engine/intonation.js';
import type { StressJudgement } from '../engine/stress.js';

export const PHONE_FEATURES = [
  'gopFloor', 'gopZ', 'durZ', 'vowel', 'skipped', 'wordGopZ', 'uttGopZ', 'gopLow', 'forced', 'prevGop', 'nextGop',
  'loopSame', 'loopClass', 'loopSilence', 'loopVowelInConsonant', 'wordFinal', 'wordInitial', 'finalConsonant',
  'wordPhones', 'primaryStress', 'unstressed', 'lastWord', 'phonePrior', 'uttDurZ', 'spectralLogP', 'spectralMargin',
] as const;

/**
 * Per phone of the model: mean and standard deviation of GOP and of log duration over the
 * training speech, and the share of the phone's tokens that the experts judged correct (its
 * prior). Phones differ widely in how well the free loop matches them (a nasal or a schwa
 * scores lower than a sibilant even when said right), so GOP is also given as a z-score against
 * its own phone (as in phone-dependent GOP thresholds, Witt & Young 2000 §4.3); and learners
 * miss some phones far more often than others (TH, DH, Z, final consonants).
 */
export type PhoneStats = Record<string, [gopMean: number, gopSd: number, durMean: number, durSd: number, prior: number]>;

/** Statistics for a phone the training speech lacks. */
const DEFAULT_STATS: PhoneStats[string] = [-1.5, 1.5, 2.2, 0.6, 0.9];

/** Broad phone classes: a phone heard as another of its class is a smaller error than one heard as another class. */
const CLASS: Record<string, string> = {};
for (const p of ['P', 'B', 'T', 'D', 'K', 'G']) CLASS[p] = 'stop';
for (const p of ['F', 'V', 'TH', 'DH', 'S', 'Z', 'SH', 'ZH', 'HH', 'CH', 'JH']) CLASS[p] = 'fricative';
for (const p of ['M', 'N', 'NG']) CLASS[p] = 'nasal';
for (const p of ['L', 'R', 'W', 'Y']) CLASS[p] = 'approximant';
export function phoneClass(phone: string): string {
  return isVowel(phone) ? 'vowel' : (CLASS[phone] ?? 'other');
}

export interface PhoneContext {
  wordZ: number;
  uttZ: number;
  /** Mean duration z-score over the reading's phones (meanDurationZ): slow, laboured reading marks a weaker reader. */
  uttDurZ: number;
  prev: PhoneEvidence | undefined;
  next: PhoneEvidence | undefined;
  /** Position of the phone in its word, the word's phone count, and whether the word is the reading's last. */
  index: number;
  count: number;
  lastWord: boolean;
  /** What the free phone loop heard over the audio, sorted by time. */
  loop: readonly PhoneSegment[];
}

export function phoneFeatures(p: PhoneEvidence, stats: PhoneStats, ctx: PhoneContext): number[] {
  const skipped = p.startFrame < 0 ? 1 : 0;
  const st = stats[p.phone] ?? DEFAULT_STATS;
  const heard = skipped ? null : heardOver(ctx.loop, p);
  const vowel = isVowel(p.phone);
  const final = ctx.index === ctx.count - 1;
  // Clipped inputs keep the fitted map monotone where training data are thin (very low GOP).
  return [
    Math.max(p.gop, -8), clip((p.gop - st[0]) / st[1], -5, 3), durationZ(p, stats),
    vowel ? 1 : 0, skipped, clip(ctx.wordZ, -5, 3), clip(ctx.uttZ, -5, 3), Math.min(0, p.gop + 3),
    // Neighbours inside the word: a badly said phone drags its neighbours' boundaries and GOP.
    clip(p.forced, -25, 0), Math.max(ctx.prev?.gop ?? p.gop, -8), Math.max(ctx.next?.gop ?? p.gop, -8),
    // What the free loop heard over the phone's span: the phone itself, one of its class, silence, a vowel for a consonant.
    heard?.same ?? 0, heard?.sameClass ?? 0, heard?.silence ?? 1, vowel ? 0 : (heard?.vowel ?? 0),
    final ? 1 : 0, ctx.index === 0 ? 1 : 0, final && !vowel ? 1 : 0, ctx.count,
    p.stress === 1 ? 1 : 0, p.stress === 0 ? 1 : 0, ctx.lastWord ? 1 : 0, st[4] ?? DEFAULT_STATS[4], clip(ctx.uttDurZ, -3, 3),
    // The whole band's judgement; NaN (the fitted mean: no evidence either way) where there is none.
    p.spectral?.[0] ?? NaN, p.spectral?.[1] ?? NaN,
  ];
}

const clip = (v: number, lo: number, hi: number) => Math.max(lo, Math.min(hi, v));

/** Log duration as a z-score against the phone's own statistics, clipped to ±3 (−3 for a skipped phone). */
export function durationZ(p: PhoneEvidence, stats: PhoneStats): number {
  if (p.startFrame < 0) return -3;
  const st = stats[p.phone] ?? DEFAULT_STATS;
  return clip((Math.log(Math.max(1, p.endFrame - p.startFrame)) - st[2]) / st[3], -3, 3);
}

/** Shares of a phone's span in which the loop heard the phone, a phone of its class, silence (or noise), a vowel. */
function heardOver(loop: readonly PhoneSegment[], p: PhoneEvidence): { same: number; sameClass: number; silence: number; vowel: number } {
  const span = Math.max(1, p.endFrame - p.startFrame);
  const cls = phoneClass(p.phone);
  const out = { same: 0, sameClass: 0, silence: 0, vowel: 0 };
  // Binary search for the first segment ending after the phone starts.
  let lo = 0;
  let hi = loop.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (loop[mid].endFrame <= p.startFrame) lo = mid + 1;
    else hi = mid;
  }
  for (let k = lo; k < loop.length && loop[k].startFrame < p.endFrame; k++) {
    const s = loop[k];
    const o = Math.min(s.endFrame, p.endFrame) - Math.max(s.startFrame, p.startFrame);
    if (o <= 0) continue;
    if (s.phone === p.phone) out.same += o;
    if (phoneClass(s.phone) === cls) out.sameClass += o;
    if (s.phone === 'SIL' || s.phone.startsWith('+')) out.silence += o;
    if (isVowel(s.phone)) out.vowel += o;
  }
  return { same: out.same / span, sameClass: out.sameClass / span, silence: out.silence / span, vowel: out.vowel / span };
}

/** Mean GOP z-score over phones (each against its own phone's statistics). */
export function meanGopZ(phones: readonly PhoneEvidence[], stats: PhoneStats): number {
  return mean(phones.map((p) => {
    const st = stats[p.phone] ?? DEFAULT_STATS;
    return (p.gop - st[0]) / st[1];
  }));
}

export const WORD_FEATURES = [
  'meanGop', 'minGop', 'badShare', 'skipped', 'phones', 'meanPhoneScore', 'minPhoneScore', 'stressMatched',
  'stressMargin', 'polysyllabic', 'logDurPerPhone', 'uttGop', 'expectedErrors', 'uttPhoneScore', 'lastWord',
] as const;

/** `ctx`: the utterance's mean GOP and mean phone score, and whether the word is its last. */
export function wordFeatures(
  w: WordEvidence,
  phoneScores: readonly number[],
  stress: StressJudgement,
  ctx: { uttGop: number; uttPhoneScore: number; lastWord: boolean },
): number[] {
  const gops = w.phones.map((p) => p.gop);
  const meanGop = mean(gops);
  const skipped = w.status === 'omitted' ? 1 : 0;
  const durPerPhone = skipped ? 0 : Math.log(Math.max(1, (w.endFrame - w.startFrame) / Math.max(1, w.phones.length)));
  return [
    meanGop, Math.min(...gops), gops.filter((g) => g < -3).length / Math.max(1, gops.length), skipped, w.phones.length,
    mean([...phoneScores]), Math.min(...phoneScores), stress.matched ? 1 : 0, Math.max(-3, Math.min(3, stress.margin)),
    stress.polysyllabic ? 1 : 0, durPerPhone, ctx.uttGop,
    // Expected number of phones judged wrong; the reader's level over the whole utterance.
    phoneScores.reduce((a, p) => a + (1 - p), 0), ctx.uttPhoneScore, ctx.lastWord ? 1 : 0,
  ];
}

const UTTERANCE_BASE = [
  'meanPhoneScore', 'p10PhoneScore', 'meanWordScore', 'p10WordScore', 'omittedShare', 'uttGop', 'badPhoneShare',
  'wordsPerMinute', 'phonesPerSecond', 'pauseShare', 'pauseSecondsShare', 'hesitationShare', 'meanPauseMs',
  'stressMatchedShare', 'rangeSt', 'alignFailed', 'logWords', 'leadTrailShare', 'heardShare',
] as const;

/**
 * Utterance inputs and their squares: rate, pauses and scores relate to the experts' fluency
 * and total non-linearly (too slow and too fast both lose). Chosen by speaker-grouped
 * cross-validation on the train half (Pearson of held-out total 0.614 linear, 0.625 with squares).
 * Pauses and hesitations are shares of the boundaries between read words and the low word
 * score a percentile, so they do not grow with the text: speechocean762's utterances hold 1 to
 * 10 words, and counts fitted there marked a native 129-word passage down to 64. The word count
 * itself stays (the experts judge a single word's fluency unlike a sentence's, where pauses can
 * happen), held like every input inside its fitted range: a longer text counts as 10 words
 * (docs/english-engine.md, "Texts longer than the fitted utterances").
 */
export const UTTERANCE_FEATURES: readonly string[] = [...UTTERANCE_BASE, ...UTTERANCE_BASE.map((n) => `${n}^2`)];

const HEARD = PHONE_FEATURES.indexOf('loopSame');

/**
 * Silence before the first word or after the last that the utterance inputs count, seconds each
 * side: above speechocean762's 99th percentile (train half: 0.8 s before, 1.0 s after), so its
 * experts' judgement of a slow start stays in the fitted maps while an app's long pre-roll does
 * not. Chosen by `cv` (1, 1.5 and 2 s alike) and the native readings with silence added.
 */
export const LEAD_TRAIL_SECONDS = 1.5;

/** Silence before the first read word and after the last, frames. */
export interface SilenceAround {
  before: number;
  after: number;
}

/** The silence a recording holds around its reading. */
export function silenceAround(ev: ReadingEvidence): SilenceAround {
  return { before: ev.speechStart, after: Math.max(0, ev.frames - ev.speechEnd) };
}

/** `around`: the silence around the reading; a sentence of a passage has its own (score.ts). */
export function utteranceFeatures(
  ev: ReadingEvidence,
  phoneScores: readonly number[],
  wordScores: readonly number[],
  stresses: readonly StressJudgement[],
  fl: FluencyMeasures,
  into: IntonationMeasures,
  phoneRows: readonly (readonly number[])[],
  around: SilenceAround = silenceAround(ev),
): number[] {
  const n = Math.max(1, ev.words.length);
  const omitted = ev.words.filter((w) => w.status === 'omitted').length;
  const poly = stresses.filter((s) => s.polysyllabic);
  const speech = Math.max(0.01, (ev.speechEnd - ev.speechStart) / 100);
  // Silence before the first word and after the last counts up to LEAD_TRAIL_SECONDS each: what
  // lies beyond is the recording's, not the reader's (an app that starts early or stops late).
  const lead = Math.min(LEAD_TRAIL_SECONDS, around.before / 100);
  const trail = Math.min(LEAD_TRAIL_SECONDS, around.after / 100);
  const total = speech + lead + trail;
  // Pauses and hesitations per boundary between read words: a count would grow with the text.
  const gaps = Math.max(1, fl.boundaries.length);
  const base = [
    mean([...phoneScores]), tenthPercentile(phoneScores), mean([...wordScores]), tenthPercentile(wordScores),
    omitted / n, utteranceGop(ev), phoneScores.filter((s) => s < 0.5).length / Math.max(1, phoneScores.length),
    Math.min(250, fl.wordsPerMinute), Math.min(20, fl.phonesPerSecond), fl.pauseCount / gaps, fl.pauseSeconds / speech,
    fl.hesitations / gaps, Math.min(3000, fl.meanPauseMs), poly.length ? poly.filter((s) => s.matched).length / poly.length : 1,
    Math.min(24, into.rangeSt), ev.ok ? 0 : 1, Math.log(n), Math.max(0, (total - speech) / total),
    // Share of the phones' time in which the loop heard the expected phone.
    mean(phoneRows.map((x) => x[HEARD])),
  ];
  return [...base, ...base.map((v) => (Number.isFinite(v) ? v * v : 0))];
}

/**
 * The value a tenth of the way up (the lowest for ten values or fewer): a low score that does
 * not fall further the longer the text is, as the minimum does.
 */
function tenthPercentile(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * 0.1)] ?? 0;
}

/** Mean GOP over all reference phones (skipped words count with their floor GOP). */
export function utteranceGop(ev: ReadingEvidence): number {
  return mean(ev.words.flatMap((w) => w.phones.map((p) => p.gop)));
}

export function mean(v: number[]): number {
  return v.length ? v.reduce((a, b) => a + b, 0) / v.length : 0;
}
