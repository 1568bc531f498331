/**
 * Which of two characters a stretch of speech belongs to, when the skippable alignment kept one
 * and skipped the other. With a character in the reference that was not spoken, the alignment
 * often gives it the frames of a spoken neighbour that shares its initial or final and skips
 * the neighbour; the toneless acoustic model cannot tell the two placements apart (compared
 * over the window, it picks the wrong one about as often as the right one). The tone it cannot
 * hear is evidence the pitch track has: the frames carry the spoken character's tone.
 *
 * A candidate is an aligned character `a` and a skipped character `s` with only skipped
 * characters between them. The window between a's aligned neighbours is decoded forced through
 * a and through s (phones and GOP, as the utterance alignment), and the tone model gives the
 * posterior of each one's accepted tones over its final in that decode, with its own expected
 * tone and its neighbours' as context (where either is not judged, the tone is no evidence
 * either way: a difference of 0). The phones' GOP over each one's own frames separates the
 * placements better than the window's total (which the neighbours' boundaries blur), but not
 * well enough alone; neither does the tone. The frames go to s when both its phones' GOP and its
 * tone fit them better (CALIBRATION.PLACE_GOP, PLACE_TONE in judge.ts); each character moves
 * at most once, the strongest tone evidence first. Characters the model spells alike (戒 jie4
 * and 杰 jie2) decode identically, so for them the tone is the only evidence and decides alone.
 *
 * A reader leaves out words, so skipped characters come in runs: read, skipped, read, skipped
 * inside a few characters is seldom what was said, and neither is half a word. When the move
 * leaves fewer breaks, counting runs of skipped characters and lexical words skipped in part
 * together (布 skipped, 会 aligned, 发 skipped, with 会发 added before 局: 布 takes the frames
 * and 会发 is one run; 追 skipped, 地 aligned, with 外地 added before 踪: 追 takes the frames and
 * the word 外地 is skipped whole), a tie on the evidence is enough (PLACE_JOIN_GOP,
 * PLACE_JOIN_TONE).
 */
import type { AcousticBackend } from '../../acoustic/types.js';
import { classifyTones, type ToneModel } from '../tone/classifier.js';
import { toneEvidence, type PitchOfSpan } from '../tone/extract.js';
import type { PitchContext } from '../tone/features.js';
import type { AlignedSyllable } from './align.js';
import { asSyllable, clipBetween, contextOf, fitsBetween, fixed, nearest, total } from './context.js';
import { frameWeightedGop } from '../../acoustic/gop.js';
import { CALIBRATION } from './judge.js';
import { acceptedTones, judgedTones } from './sandhi.js';
import type { SyllableTable } from './syllables.js';
import type { ZhText } from './text.js';

export interface Placement {
  /** The aligned character and the skipped one that may own its frames instead. */
  aligned: number;
  skipped: number;
  /** Nats per frame by which the window forced through the skipped character beats the aligned one. */
  acoustic: number;
  /**
   * Log posterior of the skipped character's accepted tones minus the aligned one's, over the
   * frames; 0 where either tone is not judged (neutral, or no pitch on its final): no evidence.
   */
  tone: number;
  /** Frame-weighted phone GOP of the skipped character minus the aligned one's, over the frames each takes in its decode. */
  gop: number;
  /** The skipped character's syllable in the window decode. */
  syllable: AlignedSyllable;
  /** The two are spelled alike in the acoustic model: one decode, so `acoustic` and `gop` are 0. */
  alike: boolean;
}

/** Number of runs of consecutive skipped characters (`out[k]`: character k is modelled and skipped). */
export function skippedRuns(out: readonly boolean[]): number {
  return out.filter((x, k) => x && !out[k - 1]).length;
}

/** Lexical words (`words[k]`: word index of character k) left partly skipped and partly read. */
export function wordsCut(out: readonly boolean[], words: readonly number[]): number {
  const seen = new Map<number, Set<boolean>>();
  out.forEach((x, k) => {
    const w = seen.get(words[k]) ?? new Set<boolean>();
    seen.set(words[k], w.add(x));
  });
  return [...seen.values()].filter((v) => v.size === 2).length;
}

/**
 * Whether giving aligned character a's frames to skipped character s leaves the skipped
 * characters more like what a reader leaves out: fewer runs of them, and fewer lexical words
 * (`words`, the text layer's segmentation) skipped in part, counted together.
 */
export function fewerBreaks(syllables: readonly (AlignedSyllable | null)[], modelled: readonly boolean[], words: readonly number[], a: number, s: number): boolean {
  const out = syllables.map((x, k) => !x && modelled[k]);
  const moved = out.map((x, k) => (k === a ? modelled[k] : k === s ? false : x));
  const breaks = (o: boolean[]) => skippedRuns(o) + wordsCut(o, words);
  return breaks(moved) < breaks(out);
}

/** Candidate pairs: each skipped, modelled character with the nearest aligned character on each side. */
export function placementPairs(syllables: readonly (AlignedSyllable | null)[], modelled: readonly boolean[]): [number, number][] {
  const out: [number, number][] = [];
  syllables.forEach((s, k) => {
    if (s || !modelled[k]) return;
    for (const dir of [-1, 1]) {
      let j = k + dir;
      while (j >= 0 && j < syllables.length && !syllables[j]) j += dir;
      if (j >= 0 && j < syllables.length) out.push([j, k]);
    }
  });
  return out;
}

/** Posterior of character k's accepted tones with `syllables` as the alignment, null without evidence. */
function acceptedPosterior(ctx: PitchContext, model: ToneModel, text: ZhText, syllables: readonly (AlignedSyllable | null)[], k: number): number | null {
  const expected = text.read.map((i) => text.tokens[i].sandhiTone);
  const features = toneEvidence(ctx, syllables, expected).features;
  const probs = classifyTones(model, features, judgedTones(text.tokens, text.read))[k];
  if (!probs) return null;
  return acceptedTones(text.tokens, text.read, k).reduce((sum, t) => sum + (t >= 1 && t <= 4 ? probs[t - 1] : 0), 0);
}

/** Acoustic and tone evidence for giving aligned character a's frames to skipped character s. */
export async function placement(
  backend: AcousticBackend,
  table: SyllableTable,
  pcm: Int16Array,
  ctx: PitchContext,
  model: ToneModel,
  text: ZhText,
  syllables: readonly (AlignedSyllable | null)[],
  labels: readonly string[],
  a: number,
  s: number,
): Promise<Placement | null> {
  const mid = syllables[a];
  if (!mid || !table.prons.has(labels[a]) || !table.prons.has(labels[s])) return null;
  const around = contextOf(table, syllables, labels, a);
  const opts = { window: around.window(pcm, mid.startFrame, mid.endFrame), phones: true, gop: true };
  const through = (label: string) => backend.align('zh', pcm, { slots: around.around([fixed(table, label)]) }, opts);
  const alike = table.same(labels[a], labels[s]);
  const asIsDecode = through(labels[a]);
  const [asIs, moved] = await Promise.all([asIsDecode, alike ? asIsDecode : through(labels[s])]);
  if (!asIs.ok || !moved.ok) return null;
  const unitA = asIs.units.filter((u) => u.slot >= 0)[around.middle];
  const unitS = moved.units.filter((u) => u.slot >= 0)[around.middle];
  if (!unitA || !unitS) return null;
  const withS = syllables.map((x, k) => (k === a ? null : k === s ? asSyllable(unitS) : x));
  const pa = acceptedPosterior(ctx, model, text, syllables, a);
  const ps = acceptedPosterior(ctx, model, text, withS, s);
  const floor = 1e-3;
  return {
    aligned: a,
    skipped: s,
    acoustic: (total(moved) - total(asIs)) / Math.max(1, mid.endFrame - mid.startFrame),
    tone: pa === null || ps === null ? 0 : Math.log(Math.max(floor, ps)) - Math.log(Math.max(floor, pa)),
    gop: (frameWeightedGop(unitS.phones) ?? 0) - (frameWeightedGop(unitA.phones) ?? 0),
    syllable: asSyllable(unitS),
    alike,
  };
}

/**
 * Gives the frames of aligned characters to skipped neighbours that fit them better (see the
 * file comment) and returns the moves made. `al.syllables` is changed in place; `fixedChars`
 * (put back by the second look) neither give nor take frames; `only`, when given, limits the
 * skipped characters looked at.
 */
export async function placeSkipped(
  backend: AcousticBackend,
  table: SyllableTable,
  pcm: Int16Array,
  pitch: PitchOfSpan,
  model: ToneModel,
  text: ZhText,
  al: { syllables: (AlignedSyllable | null)[]; modelled: readonly boolean[] },
  labels: readonly string[],
  fixedChars: ReadonlySet<number>,
  only?: ReadonlySet<number>,
): Promise<Placement[]> {
  const pairs = placementPairs(al.syllables, al.modelled).filter(([a, s]) => !fixedChars.has(a) && !fixedChars.has(s) && (!only || only.has(s)));
  if (pairs.length === 0) return [];
  const ctx = pitch(al.syllables);
  if (!ctx) return [];
  const before = [...al.syllables];
  const words = text.source.chars.map((c) => c.word);
  const found = await Promise.all(pairs.map(([a, s]) => placement(backend, table, pcm, ctx, model, text, before, labels, a, s)));
  const chosen = found
    .filter((p): p is Placement => p !== null && moves(p, fewerBreaks(before, al.modelled, words, p.aligned, p.skipped)))
    .sort((x, y) => y.tone - x.tone);
  const used = new Set<number>();
  const made: Placement[] = [];
  for (const m of chosen) {
    if (used.has(m.aligned) || used.has(m.skipped)) continue;
    // The window decode aligns the neighbours again too: the frames it gives the skipped
    // character must still lie between the characters aligned on each side of it now (an
    // earlier move may have changed them), and it takes them back from those characters.
    const rest = al.syllables.map((x, k) => (k === m.aligned ? null : x));
    const [prev, next] = [nearest(rest, m.skipped, -1), nearest(rest, m.skipped, 1)];
    if (!fitsBetween(rest, prev, next, m.syllable)) continue;
    used.add(m.aligned).add(m.skipped);
    al.syllables[m.aligned] = null;
    al.syllables[m.skipped] = m.syllable;
    clipBetween(al.syllables, prev, next, m.syllable);
    made.push(m);
  }
  return made;
}

/**
 * Whether the evidence gives the frames to the skipped character (CALIBRATION in judge.ts); a
 * tie is enough when the move leaves `fewer` breaks in what was skipped (fewerBreaks). Characters
 * spelled alike have no GOP difference to show, so their tone decides alone.
 */
export function moves(p: Pick<Placement, 'gop' | 'tone' | 'alike'>, fewer: boolean): boolean {
  if (p.alike && p.tone > CALIBRATION.PLACE_TONE) return true;
  const tie = fewer && p.gop > CALIBRATION.PLACE_JOIN_GOP && p.tone > CALIBRATION.PLACE_JOIN_TONE;
  return tie || (p.gop > CALIBRATION.PLACE_GOP && p.tone > CALIBRATION.PLACE_TONE);
}
