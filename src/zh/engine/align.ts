/**
 * Forced alignment of the read characters: one slot per character with its syllable's
 * pronunciations, every slot skippable so omissions show as skipped slots. Characters whose
 * syllable the model cannot spell get no slot (they are reported without acoustic evidence).
 */
import type { AcousticBackend, AlignFailure, FrameWindow, GrammarSlot, PhoneSegment, UnitSegment } from '../../acoustic/types.js';
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

/** The lowest GOP among a syllable's phones (nats per frame, ≤ 0), null when none has one. */
export function worstGop(s: AlignedSyllable): number | null {
  const gops = s.phones.flatMap((p) => (p.gop === undefined ? [] : [p.gop]));
  return gops.length === 0 ? null : Math.min(...gops);
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
  /** The free phone loop over the utterance (with GOP; empty otherwise): phones heard. */
  loop: PhoneSegment[];
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
  return loudFrames(frameLevels(pcm), silences);
}

/** Level of each 10 ms frame (dB of full scale) and the recording's speech level (95th percentile). */
export interface FrameLevels {
  db: Float64Array;
  speech: number;
}

/** Each recording's levels, computed once: the omission check, the onset check and the insertion check all read them. */
const levelsOf = new WeakMap<Int16Array, FrameLevels>();

export function frameLevels(pcm: Int16Array): FrameLevels {
  let levels = levelsOf.get(pcm);
  if (!levels) levelsOf.set(pcm, (levels = measureLevels(pcm)));
  return levels;
}

function measureLevels(pcm: Int16Array): FrameLevels {
  const frames = Math.floor(pcm.length / 160);
  const db = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let e = 0;
    for (let i = f * 160; i < (f + 1) * 160; i++) e += (pcm[i] / 32768) ** 2;
    db[f] = 10 * Math.log10(e / 160 + 1e-12);
  }
  const sorted = [...db].sort((a, b) => a - b);
  return { db, speech: sorted[Math.floor(0.95 * (sorted.length - 1))] ?? -120 };
}

/** Frames of the spans within 15 dB of the speech level (as loud as speech). */
export function loudFrames(levels: FrameLevels, spans: readonly { startFrame: number; endFrame: number }[]): number {
  let loud = 0;
  for (const s of spans) for (let f = Math.max(0, s.startFrame); f < Math.min(levels.db.length, s.endFrame); f++) if (levels.db[f] > levels.speech - 15) loud++;
  return loud;
}

/**
 * Frames by which syllables exceed three times the median syllable: the phone pass hands the
 * frames of skipped speech to a neighbour instead of silence.
 */
export function overlongFrames(al: ReadingAlignment): number {
  const median = medianSyllableFrames(al);
  return al.syllables.reduce((sum, s) => sum + (s ? Math.max(0, s.endFrame - s.startFrame - 3 * median) : 0), 0);
}

/** Frames of the shortest phone the model aligns: three emitting states, none skippable. */
export const MIN_PHONE_FRAMES = 3;

/**
 * Whether a syllable was squeezed in: every phone at the model's minimum length. The skippable
 * alignment does this with characters that were not spoken but cost little at a boundary (S0150:
 * 2 of 120 characters added to the reference and not spoken; 1 of 3,072 native characters).
 */
export function squeezed(s: AlignedSyllable): boolean {
  return s.phones.length > 0 && s.endFrame - s.startFrame <= MIN_PHONE_FRAMES * s.phones.length;
}

/** The reader's median syllable length in frames (0 when nothing is aligned): the yardstick of speaking rate. */
export function medianSyllableFrames(al: ReadingAlignment): number {
  const d = al.syllables.flatMap((s) => (s ? [s.endFrame - s.startFrame] : [])).sort((a, b) => a - b);
  return d.length ? d[Math.floor(d.length / 2)] : 0;
}

/** Loud silence plus overlong syllables beyond this (300 ms) make the skippable alignment suspect. */
export const MAX_LOUD_SILENCE_FRAMES = 30;

/**
 * Aligns with skippable characters; when that alignment hides speech in silence (see
 * loudSilenceFrames) it is replaced by the alignment with every character required, so this
 * reading's omissions are then left to the second look at single characters. A reading longer
 * than WHOLE_READING_CHARS is aligned piece by piece (alignInPieces). `clauses` gives each read
 * character's clause, where pieces prefer to break.
 */
export async function alignWithOmissions(
  backend: AcousticBackend,
  table: SyllableTable,
  syllables: readonly string[],
  pcm: Int16Array,
  clauses: readonly number[] = syllables.map(() => 0),
): Promise<ReadingAlignment> {
  if (syllables.length <= WHOLE_READING_CHARS) return alignPiece(backend, table, syllables, pcm, {});
  return alignInPieces(backend, table, syllables, pcm, pieceRanges(clauses, PIECE_CHARS));
}

async function alignPiece(backend: AcousticBackend, table: SyllableTable, syllables: readonly string[], pcm: Int16Array, at: PieceOptions): Promise<ReadingAlignment> {
  const first = await alignReading(backend, table, syllables, pcm, { ...at, gop: true, optional: true });
  if (!first.ok || !first.syllables.some((s, k) => !s && first.modelled[k])) return first;
  if (loudSilenceFrames(pcm, first.silences) + overlongFrames(first) <= MAX_LOUD_SILENCE_FRAMES) return first;
  const strict = await alignReading(backend, table, syllables, pcm, { ...at, gop: true, optional: false });
  return strict.ok ? strict : first;
}

/**
 * Longest reading aligned in one piece (a long sentence), and the most read characters per
 * piece of a longer one (about 4 s of speech). With every slot skippable the grammar search
 * keeps every position of the text alive at every frame, so one alignment costs about the
 * product of frames and characters: 5 s of speech 40 ms, 60 s over 10 s. Pieces keep the
 * cost linear in length (S0150, 60 s: pieces of 24 characters cost 3.4 s, of 16 about 2 s).
 */
export const WHOLE_READING_CHARS = 30;
export const PIECE_CHARS = 16;
/** Syllables of the neighbouring pieces put at each end of a piece as skippable context. */
const CONTEXT_SYLLABLES = 2;
/** Frames a piece's window reaches beyond its located boundaries (0.4 s), for location errors. */
const PIECE_MARGIN = 40;

interface PieceOptions {
  window?: FrameWindow;
  /** Syllables aligned before and after the piece (skippable) and then dropped. */
  context?: { before: readonly string[]; after: readonly string[] };
}

/**
 * Splits read characters into pieces of at most `max`: whole clauses while they fit, a longer
 * clause into equal parts. Returns [start, end) ranges of read-character indices.
 */
export function pieceRanges(clauses: readonly number[], max: number): [number, number][] {
  const runs: [number, number][] = [];
  for (let k = 0; k < clauses.length; k++) {
    if (k > 0 && clauses[k] === clauses[k - 1]) runs[runs.length - 1][1] = k + 1;
    else runs.push([k, k + 1]);
  }
  const parts = runs.flatMap(([a, b]) => {
    const n = Math.ceil((b - a) / max);
    return Array.from({ length: n }, (_, i): [number, number] => [a + Math.round(((b - a) * i) / n), a + Math.round(((b - a) * (i + 1)) / n)]);
  });
  const out: [number, number][] = [];
  for (const [a, b] of parts) {
    const last = out[out.length - 1];
    if (last && b - last[0] <= max) last[1] = b;
    else out.push([a, b]);
  }
  return out;
}

/**
 * A long reading aligned in pieces. One alignment with every character required (cheap: its
 * search stays near the diagonal) locates where each piece starts and ends; each piece is then
 * aligned as usual in its own window, reaching PIECE_MARGIN beyond the located boundaries,
 * with the neighbouring pieces' edge syllables as skippable context so their speech in the
 * margin has somewhere to go. Pieces are independent and decoded concurrently.
 */
async function alignInPieces(backend: AcousticBackend, table: SyllableTable, syllables: readonly string[], pcm: Int16Array, ranges: [number, number][]): Promise<ReadingAlignment> {
  const frames = Math.floor(pcm.length / 160);
  const located = await alignReading(backend, table, syllables, pcm, { gop: false, optional: false, phones: false });
  const cuts = pieceBoundaries(located, ranges, frames);
  const results = await Promise.all(
    ranges.map(([a, b], i) => {
      const window = { startFrame: Math.max(0, cuts[i] - PIECE_MARGIN), endFrame: Math.min(frames, cuts[i + 1] + PIECE_MARGIN) };
      const context = { before: syllables.slice(Math.max(0, a - CONTEXT_SYLLABLES), a), after: syllables.slice(b, b + CONTEXT_SYLLABLES) };
      return alignPiece(backend, table, syllables.slice(a, b), pcm, { window, context });
    }),
  );
  const within = (i: number) => (x: { startFrame: number }) => x.startFrame >= cuts[i] && x.startFrame < cuts[i + 1];
  // A piece that cannot be aligned leaves its characters skipped; the reading fails only when all do.
  const ok = results.some((r) => r.ok);
  return {
    ok,
    failure: ok ? null : results[0].failure,
    frames,
    syllables: results.flatMap((r) => r.syllables),
    modelled: results.flatMap((r) => r.modelled),
    silences: results.flatMap((r, i) => r.silences.filter(within(i))),
    loop: results.flatMap((r, i) => r.loop.filter(within(i))),
  };
}

/**
 * Frames where pieces meet: midway between the last located syllable of one piece and the
 * first of the next. Without a location (or for a piece with none) the speech is shared in
 * proportion to the characters.
 */
function pieceBoundaries(located: ReadingAlignment, ranges: [number, number][], frames: number): number[] {
  const total = ranges[ranges.length - 1][1];
  const cuts = [0];
  for (let i = 1; i < ranges.length; i++) {
    const at = ranges[i][0];
    const prev = located.ok ? located.syllables.slice(0, at).filter((s) => s !== null).pop() : undefined;
    const next = located.ok ? located.syllables.slice(at).find((s) => s !== null) : undefined;
    const guess = prev && next ? Math.round((prev.endFrame + next.startFrame) / 2) : Math.round((frames * at) / total);
    cuts.push(Math.max(cuts[i - 1], Math.min(frames, guess)));
  }
  cuts.push(frames);
  return cuts;
}

export async function alignReading(
  backend: AcousticBackend,
  table: SyllableTable,
  syllables: readonly string[],
  pcm: Int16Array,
  opts: { gop: boolean; optional: boolean; phones?: boolean } & PieceOptions,
): Promise<ReadingAlignment> {
  const before = opts.context?.before ?? [];
  const after = opts.context?.after ?? [];
  const all = [...before, ...syllables, ...after];
  const inPiece = (k: number) => k >= before.length && k < before.length + syllables.length;
  const modelled = syllables.map((s) => table.prons.has(s));
  const slotToK: number[] = [];
  const slots: GrammarSlot[] = [];
  all.forEach((s, k) => {
    const slot = slotFor(table, s, opts.optional || !inPiece(k));
    if (slot) {
      slots.push(slot);
      slotToK.push(k - before.length);
    }
  });
  const empty: ReadingAlignment = { ok: false, failure: 'no-match', frames: 0, syllables: syllables.map(() => null), modelled, silences: [], loop: [] };
  if (!slotToK.some((k) => k >= 0 && k < syllables.length)) return empty;
  let res: Awaited<ReturnType<AcousticBackend['align']>>;
  try {
    const phones = opts.phones ?? true;
    res = await backend.align('zh', pcm, { slots, optionalSilence: true }, { phones, gop: opts.gop, phoneLoop: opts.gop, window: opts.window });
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
    const k = u.slot < 0 ? -1 : slotToK[u.slot];
    if (u.slot < 0) silences.push({ startFrame: u.startFrame, endFrame: u.endFrame, score: u.score });
    else if (k >= 0 && k < syllables.length) out[k] = toSyllable(u);
  }
  const frames = opts.window ? Math.floor(pcm.length / 160) : res.frames;
  return { ok: true, failure: null, frames, syllables: out, modelled, silences, loop: res.loop ?? [] };
}

function toSyllable(u: UnitSegment): AlignedSyllable {
  const last = u.phones[u.phones.length - 1];
  const finalStart = last ? last.startFrame : u.startFrame;
  const finalEnd = last ? last.endFrame : u.endFrame;
  return { startFrame: u.startFrame, endFrame: u.endFrame, score: u.score, phones: u.phones, finalStart, finalEnd };
}
