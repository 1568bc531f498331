/**
 * Early scoring of a real-time round. Audio arrives over several seconds before `end`, and
 * most of a reading's evaluation can run in that time: once the progress tracker reports every
 * reference word read and the audio has gone quiet (the endpoint), the round's scorer runs on
 * the audio received so far. At `end` that scoring is used only when everything received after
 * its last sample is silence; otherwise it is dropped and the whole upload is scored as usual.
 *
 * What this changes, and what it does not:
 * - the result is the scorer's own answer, of the same kind as a full evaluation, but on the
 *   audio up to the endpoint: the silent tail is not part of it (`duration` is that of the
 *   scored audio). Decoding checks, the record, the stored recording and metering use the
 *   whole upload.
 * - at most one scoring per round runs at a time; one made stale by more speech is replaced
 *   by a new one at the next endpoint, after it finishes (bounded extra work).
 * - only 16-bit PCM WAV streams take part (their samples exist while audio arrives).
 * - an early scoring is not yet an admitted evaluation (admission, charging and metering
 *   happen at `end`), so the process runs at most MAX_RUNNING of them at once: beyond that a
 *   round is simply scored at `end`. Free work is bounded whatever clients send.
 *
 * Silence is judged against the recording itself: a 10 ms frame is quiet when its RMS is under
 * a tenth (-20 dB) of the loud frames' level (the 90th percentile of frame RMS so far), and
 * never above QUIET_CEILING_RMS. A noisy recording whose background is within 20 dB of the
 * speech is never quiet, so it is always scored whole.
 */
import type { DecodedAudio } from '../../audio/decode.js';
import { finish as finishDecoded } from '../../audio/decode.js';
import { parseWavHeader } from '../../audio/wav.js';
import type { ScoredEvaluation } from '../service.js';
import type { EarlyScore } from '../types.js';

const FRAME = 160;
/** Quiet audio needed after the last word before scoring starts (the endpoint), in frames. */
export const ENDPOINT_FRAMES = 20;
/** Quiet frames are at least 20 dB under the loud frames. */
const QUIET_RATIO = 0.1;
/** The quiet threshold never exceeds this RMS (about -50 dBFS). */
const QUIET_CEILING_RMS = 100;
/** Frames the speech level needs before any frame is judged quiet (1 s). */
const MIN_LEVEL_FRAMES = 100;
/** Early scorings running at once in this process (one per acoustic worker on this machine). */
const MAX_RUNNING = 2;
let running = 0;

function frameRms(pcm: Int16Array, frame: number): number {
  let sum = 0;
  for (let i = frame * FRAME; i < (frame + 1) * FRAME; i++) sum += pcm[i] * pcm[i];
  return Math.sqrt(sum / FRAME);
}

/** The quiet threshold of a recording from its first `frames` frames; null while too short. */
export function quietThreshold(pcm: Int16Array, frames = Math.floor(pcm.length / FRAME)): number | null {
  if (frames < MIN_LEVEL_FRAMES) return null;
  const levels = Array.from({ length: frames }, (_, f) => frameRms(pcm, f)).sort((a, b) => a - b);
  return Math.min(QUIET_CEILING_RMS, QUIET_RATIO * levels[Math.floor(0.9 * (frames - 1))]);
}

/** True when every sample from `from` to the end lies in frames quieter than `threshold`. */
export function quietFrom(pcm: Int16Array, from: number, threshold: number): boolean {
  const first = Math.floor(from / FRAME);
  const whole = Math.floor(pcm.length / FRAME);
  for (let f = first; f < whole; f++) if (frameRms(pcm, f) >= threshold) return false;
  // A partial last frame: judged on the samples it has.
  let sum = 0;
  for (let i = Math.max(from, whole * FRAME); i < pcm.length; i++) sum += pcm[i] * pcm[i];
  const rest = pcm.length - Math.max(from, whole * FRAME);
  return rest <= 0 || Math.sqrt(sum / rest) < threshold;
}

interface Attempt {
  samples: number;
  threshold: number;
  scored: Promise<ScoredEvaluation | null>;
  done: boolean;
}

export class EarlyScoring {
  private attempt: Attempt | null = null;
  private closed = false;

  /**
   * `score` runs the round's scorer (nothing written); `raw` gives the bytes received so far.
   * `enabled` false (KOUYU_EARLY_SCORING=off): nothing is ever scored early.
   */
  constructor(
    private readonly score: (audio: DecodedAudio) => Promise<ScoredEvaluation>,
    private readonly raw: () => Buffer,
    enabled = true,
  ) {
    this.closed = !enabled;
  }

  /**
   * After new audio: `pcm` is everything so far, `allRead` whether the tracker has reported
   * every reference word. Starts a scoring at an endpoint unless a valid or running one exists.
   */
  observe(pcm: Int16Array, allRead: boolean): void {
    if (!allRead || this.closed) return;
    const current = this.attempt;
    if (current && (!current.done || quietFrom(pcm, current.samples, current.threshold))) return;
    if (running >= MAX_RUNNING) return;
    const frames = Math.floor(pcm.length / FRAME);
    const threshold = quietThreshold(pcm, frames);
    if (threshold === null || frames < ENDPOINT_FRAMES || !quietFrom(pcm.subarray(0, frames * FRAME), (frames - ENDPOINT_FRAMES) * FRAME, threshold)) return;
    const audio = this.decoded(pcm.slice(0, frames * FRAME));
    if (!audio) return;
    const attempt: Attempt = { samples: audio.pcm.length, threshold, done: false, scored: Promise.resolve(null) };
    running += 1;
    attempt.scored = this.score(audio).then(
      (scored) => scored,
      () => null, // the full evaluation at `end` reports any real failure
    ).finally(() => {
      running -= 1;
      attempt.done = true;
    });
    this.attempt = attempt;
  }

  /** No new scoring starts (the round ended or was abandoned). */
  close(): void {
    this.closed = true;
  }

  /** At `end`, with the whole upload's samples: the early scoring when only silence followed it. */
  async take(pcm: Int16Array): Promise<EarlyScore | null> {
    this.close();
    const attempt = this.attempt;
    if (!attempt || pcm.length < attempt.samples || !quietFrom(pcm, attempt.samples, attempt.threshold)) return null;
    const scored = await attempt.scored;
    return scored ? { scored, audioMs: attempt.samples / 16 } : null;
  }

  /** The samples as decoded audio, with the stream's own source description; null when unusable (the end decides). */
  private decoded(pcm: Int16Array): DecodedAudio | null {
    const header = parseWavHeader(this.raw());
    if (!header.ok) return null;
    try {
      return finishDecoded({ pcm, source: { format: 'wav', sampleRate: header.header.sampleRate, channels: header.header.channels } });
    } catch {
      return null;
    }
  }
}
