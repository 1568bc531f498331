/**
 * What a successful call meters (spec "What the service does", item 8): per appKey per
 * Beijing day. Failed calls meter nothing, so these are only called on success, and the
 * result goes to `storage.ledger.commitSuccess` together with the record and the charge.
 *
 * `meterKey` is `principal.meterKey`: the appKey, or `console:<username>` for Bearer calls.
 * Characters are Unicode code points (a Chinese character or an emoji counts once), spaces
 * and punctuation included, as the text was sent.
 */
import type { MeterName, UsageIncrement } from '../storage/types.js';

export interface MeterSubject {
  tenantId: string;
  meterKey: string;
}

/** Every meter name, in the order the console lists them. */
export const METERS: readonly MeterName[] = ['evaluation.calls', 'evaluation.chars', 'evaluation.audio_seconds', 'tts.standard', 'asr.stream'];

/** Code points in `text` (String.length would count a surrogate pair twice). */
export function countChars(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/** Audio seconds kept to the millisecond, so sums of many rows do not drift in binary float. */
export function roundSeconds(seconds: number): number {
  if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`audio seconds must be finite and >= 0, got ${seconds}`);
  return Math.round(seconds * 1000) / 1000;
}

function inc(subject: MeterSubject, meter: MeterName, quantity: number): UsageIncrement {
  return { tenantId: subject.tenantId, appKey: subject.meterKey, meter, quantity };
}

/**
 * One evaluation (HTTP call or one WebSocket session): one call, the reference text's
 * characters, and the audio's duration in seconds.
 */
export function evaluationUsage(subject: MeterSubject, referenceText: string, audioSeconds: number): UsageIncrement[] {
  return [
    inc(subject, 'evaluation.calls', 1),
    inc(subject, 'evaluation.chars', countChars(referenceText)),
    inc(subject, 'evaluation.audio_seconds', roundSeconds(audioSeconds)),
  ];
}

/** One synthesis: the characters of the text synthesized (meter `tts.standard`). */
export function ttsUsage(subject: MeterSubject, text: string): UsageIncrement[] {
  return [inc(subject, 'tts.standard', countChars(text))];
}

/** One recognition: seconds of audio recognized (meter `asr.stream`). */
export function asrUsage(subject: MeterSubject, audioSeconds: number): UsageIncrement[] {
  return [inc(subject, 'asr.stream', roundSeconds(audioSeconds))];
}
