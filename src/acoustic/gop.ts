/**
 * Goodness of pronunciation from a forced phone alignment and a free phone loop.
 *
 * Witt & Young (2000), "Phone-level pronunciation scoring and assessment for interactive
 * language learning", Speech Communication 30: GOP(p) = |log P(O|p) - max_q log P(O|q)| / NF(p),
 * the forced log-likelihood of phone p against the best unconstrained phone sequence over the
 * same frames, normalised by the phone's frame count. Here it is kept signed:
 * gop = min(0, (forced - loop) / frames), so 0 is "as good as the best free phones" and more
 * negative is worse, in nats per 10 ms frame.
 *
 * The phone loop reports one score per loop segment, not per frame; a loop segment that only
 * partly overlaps a phone contributes its score in proportion to the overlapping frames
 * (frames inside a Viterbi segment are treated as equally likely). Pure, no I/O.
 */
import type { PhoneSegment } from './types.js';

/** Best free score over [startFrame, endFrame), from loop segments sorted by time. */
export function loopScoreOver(loop: readonly PhoneSegment[], startFrame: number, endFrame: number): number {
  let total = 0;
  for (const seg of loop) {
    if (seg.endFrame <= startFrame) continue;
    if (seg.startFrame >= endFrame) break;
    const len = seg.endFrame - seg.startFrame;
    if (len <= 0) continue;
    const overlap = Math.min(seg.endFrame, endFrame) - Math.max(seg.startFrame, startFrame);
    total += (seg.score * overlap) / len;
  }
  return total;
}

/** Returns copies of the forced phones with loopScore and gop filled in. */
export function withGop(phones: readonly PhoneSegment[], loop: readonly PhoneSegment[]): PhoneSegment[] {
  return phones.map((p) => {
    const frames = p.endFrame - p.startFrame;
    if (frames <= 0) return { ...p };
    const loopScore = loopScoreOver(loop, p.startFrame, p.endFrame);
    return { ...p, loopScore, gop: Math.min(0, (p.score - loopScore) / frames) };
  });
}

/** Frame-weighted GOP of phone segments (a syllable's, a word's): nats per frame, ≤ 0; null without GOP. */
export function frameWeightedGop(phones: readonly PhoneSegment[]): number | null {
  let sum = 0;
  let frames = 0;
  for (const p of phones) {
    if (p.gop === undefined) continue;
    const n = p.endFrame - p.startFrame;
    sum += p.gop * n;
    frames += n;
  }
  return frames > 0 ? sum / frames : null;
}
