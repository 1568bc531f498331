/**
 * Forced alignment of the read characters: one slot per character with its syllable's
 * pronunciations, every slot skippable so omissions show as skipped slots. Characters whose
 * syllable the model cannot spell get no slot (they are reported without acoustic evidence).
 */
import type { AcousticBackend, AlignFailure, GrammarSlot, PhoneSegment, UnitSegment } from '../../acoustic/types.js';
import type { SyllableTable } from './syllables.js';

export interface AlignedSyllable {
  startFrame: number;
  endFrame: number;
  /** Acoustic log-likelihood of the syllable (natural log). */
  score: number;
  phones: PhoneSegment[];
  /** The final's frames (the last phone), the span tone is judged on. */
  finalStart: number;
  finalEnd: number;
}

export interface ReadingAlignment {
  ok: boolean;
  failure: AlignFailure | null;
  frames: number;
  /** Per read character (index k): its aligned syllable, or null when skipped / not modelled. */
  syllables: (AlignedSyllable | null)[];
  /** Per read character: whether the model could spell its syllable. */
  modelled: boolean[];
  /** Silence and filler units between syllables, in frames, with their log-likelihoods. */
  silences: { startFrame: number; endFrame: number; score: number }[];
}

export function slotFor(table: SyllableTable, syllable: string, optional: boolean): GrammarSlot | null {
  const prons = table.prons.get(syllable);
  return prons ? { alternatives: [{ label: syllable, prons }], optional } : null;
}

/**
 * Frames inside silence/filler units that are as loud as speech (within 15 dB of the recording's
 * 95th-percentile frame level). With skippable slots the grammar search can skip a run of
 * characters and let the silence model absorb their speech, typically when a phrase occurs
 * twice in the text and the first reading is matched to the second occurrence.
 */
export function loudSilenceFrames(pcm: Int16Array, silences: readonly { startFrame: number; endFrame: number }[]): number {
  const frames = Math.floor(pcm.length / 160);
  const db = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let e = 0;
    for (let i = f * 160; i < (f + 1) * 160; i++) e += (pcm[i] / 32768) ** 2;
    db[f] = 10 * Math.log10(e / 160 + 1e-12);
  }
  const sorted = [...db].sort((a, b) => a - b);
  const level = sorted[Math.floor(0.95 * (sorted.length - 1))] ?? -120;
  let loud = 0;
  for (const s of silences) for (let f = Math.max(0, s.startFrame); f < Math.min(frames, s.endFrame); f++) if (db[f] > level - 15) loud++;
  return loud;
}

/**
 * Frames by which syllables exceed three times the median syllable: the phone pass hands the
 * frames of skipped speech to a neighbour instead of silence.
 */
export function overlongFrames(al: ReadingAlignment): number {
  const d = al.syllables.flatMap((s) => (s ? [s.endFrame - s.startFrame] : [])).sort((a, b) => a - b);
  if (d.length === 0) return 0;
  const median = d[Math.floor(d.length / 2)];
  return d.reduce((sum, x) => sum + Math.max(0, x - 3 * median), 0);
}

/** Loud silence plus overlong syllables beyond this (300 ms) make the skippable alignment suspect. */
export const MAX_LOUD_SILENCE_FRAMES = 30;

/**
 * Aligns with skippable characters; when that alignment hides speech in silence (see
 * loudSilenceFrames) it is replaced by the alignment with every character required, so this
 * reading's omissions are then left to the second look at single characters.
 */
export async function alignWithOmissions(backend: AcousticBackend, table: SyllableTable, syllables: readonly string[], pcm: Int16Array): Promise<ReadingAlignment> {
  const first = await alignReading(backend, table, syllables, pcm, { gop: true, optional: true });
  if (!first.ok || !first.syllables.some((s, k) => !s && first.modelled[k])) return first;
  if (loudSilenceFrames(pcm, first.silences) + overlongFrames(first) <= MAX_LOUD_SILENCE_FRAMES) return first;
  const strict = await alignReading(backend, table, syllables, pcm, { gop: true, optional: false });
  return strict.ok ? strict : first;
}

export async function alignReading(
  backend: AcousticBackend,
  table: SyllableTable,
  syllables: readonly string[],
  pcm: Int16Array,
  opts: { gop: boolean; optional: boolean },
): Promise<ReadingAlignment> {
  const modelled = syllables.map((s) => table.prons.has(s));
  const slotToK: number[] = [];
  const slots: GrammarSlot[] = [];
  syllables.forEach((s, k) => {
    const slot = slotFor(table, s, opts.optional);
    if (slot) {
      slots.push(slot);
      slotToK.push(k);
    }
  });
  const empty: ReadingAlignment = { ok: false, failure: 'no-match', frames: 0, syllables: syllables.map(() => null), modelled, silences: [] };
  if (slots.length === 0) return empty;
  let res: Awaited<ReturnType<AcousticBackend['align']>>;
  try {
    res = await backend.align('zh', pcm, { slots, optionalSilence: true }, { phones: true, gop: opts.gop });
  } catch {
    // With every slot skippable, a recording with no matching speech can skip them all and
    // leave the phone pass nothing to align; PocketSphinx then rejects the empty grammar.
    // For scoring that is the same finding as a failed alignment: no speech matching the text.
    return { ...empty, failure: 'no-speech' };
  }
  if (!res.ok) return { ...empty, failure: res.reason };
  const out: (AlignedSyllable | null)[] = syllables.map(() => null);
  const silences: ReadingAlignment['silences'] = [];
  for (const u of res.units) {
    if (u.slot < 0) {
      silences.push({ startFrame: u.startFrame, endFrame: u.endFrame, score: u.score });
      continue;
    }
    out[slotToK[u.slot]] = toSyllable(u);
  }
  return { ok: true, failure: null, frames: res.frames, syllables: out, modelled, silences };
}

function toSyllable(u: UnitSegment): AlignedSyllable {
  const last = u.phones[u.phones.length - 1];
  const finalStart = last ? last.startFrame : u.startFrame;
  const finalEnd = last ? last.endFrame : u.endFrame;
  return { startFrame: u.startFrame, endFrame: u.endFrame, score: u.score, phones: u.phones, finalStart, finalEnd };
}
