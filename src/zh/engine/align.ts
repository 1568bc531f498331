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
