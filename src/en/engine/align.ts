/**
 * The acoustic passes of one reading, arranged so that their cost grows linearly with the
 * reading and independent passes run side by side (the service's backend spreads concurrent
 * calls over its worker threads):
 * - the free phone loop is decoded once, beside the word and phone alignment, and serves both
 *   the GOP of every phone (Witt & Young 2000: forced against loop likelihood over the same
 *   frames, computed here with the backend's own `withGop`) and "what was heard" for the phones
 *   that score low. Asking `align` for `gop` would decode the same loop a second time.
 * - a long reading is aligned piece by piece. Every slot of the reading grammar is optional, so
 *   every word stays reachable on every frame and one whole-reading pass costs words × frames;
 *   pieces of PIECE_WORDS words over a window of the audio cost a constant each. A piece is
 *   aligned with the next OVERLAP_WORDS words after it, so that the speech of the next piece
 *   at the end of the window lands on those words and not on the piece's own last word; the
 *   next window starts where the piece's last read word ends. The loop of each window is
 *   decoded beside its alignment, so forced and loop scores share the window's feature
 *   normalisation.
 */
import { withGop } from '../../acoustic/gop.js';
import type { AcousticBackend, AlignResult, FrameWindow, GrammarSpec, PhoneSegment, UnitSegment } from '../../acoustic/types.js';
import { FRAMES_PER_SECOND, SAMPLES_PER_FRAME } from '../../acoustic/types.js';

export interface AlignedReading {
  result: AlignResult;
  /** Free phone loop segments over the audio, sorted by time. */
  loop: PhoneSegment[];
}

/** Readings of more words than this are aligned in pieces (a 5 s sentence has about 15). */
export const CHUNK_ABOVE_WORDS = 40;
/** Words per piece. */
export const PIECE_WORDS = 15;
/** Words of the next piece aligned with a piece (and then discarded). */
export const OVERLAP_WORDS = 4;
/** A piece's window spans this many times the reading's mean frames per word, plus WINDOW_PAD. */
const WINDOW_SPREAD = 1;
const WINDOW_PAD = FRAMES_PER_SECOND;
/** A piece whose last read word ends this close to its window's end is aligned again on a window twice as long. */
const CROWDED_END = FRAMES_PER_SECOND / 2;

/**
 * Called with the word pass's answer of a reading aligned in one window, while its phone pass
 * runs: work that needs only the words can start then, on the other core.
 */
export type OnWords = (words: AlignResult & { ok: true }) => void;

export async function alignReading(backend: AcousticBackend, pcm: Int16Array, grammar: GrammarSpec, onWords?: OnWords): Promise<AlignedReading> {
  const frames = Math.floor(pcm.length / SAMPLES_PER_FRAME);
  if (grammar.slots.length > CHUNK_ABOVE_WORDS) {
    const pieces = await alignPieces(backend, pcm, grammar, frames);
    if (pieces) return pieces;
  }
  return alignWindow(backend, pcm, grammar, { startFrame: 0, endFrame: frames }, onWords);
}

/**
 * Word and phone alignment of a window with its own loop, GOP filled in. The word pass and the
 * phone pass are two calls, so that `onWords` can start work beside the phone pass; the loop
 * runs beside both.
 */
async function alignWindow(backend: AcousticBackend, pcm: Int16Array, grammar: GrammarSpec, window: FrameWindow, onWords?: OnWords): Promise<AlignedReading> {
  const whole = window.startFrame === 0 && window.endFrame * SAMPLES_PER_FRAME >= pcm.length - SAMPLES_PER_FRAME;
  const opts = whole ? {} : { window };
  const looping = backend.phoneLoop('en', pcm, opts);
  // Awaited below in every case; until then a failure must not count as unhandled.
  looping.catch(() => undefined);
  const words = await backend.align('en', pcm, grammar, opts);
  if (!words.ok) return { result: words, loop: await looping };
  // The phone pass is asked for first: on a busy pool it is served before what onWords starts.
  const phones = backend.alignPhones('en', pcm, grammar, words.units, opts);
  onWords?.(words);
  const [result, loop] = await Promise.all([phones, looping]);
  if (!result.ok) return { result, loop };
  return { result: { ...result, units: result.units.map((u) => ({ ...u, phones: withGop(u.phones, loop) })) }, loop };
}

/**
 * Piece-wise alignment; null when a piece cannot be aligned (the caller then aligns the whole
 * reading at once, which also yields the typed failure).
 */
async function alignPieces(backend: AcousticBackend, pcm: Int16Array, grammar: GrammarSpec, frames: number): Promise<AlignedReading | null> {
  const n = grammar.slots.length;
  const perWord = frames / n;
  const units: UnitSegment[] = [];
  const loop: PhoneSegment[] = [];
  let cursor = 0;
  for (let first = 0; first < n; first += PIECE_WORDS) {
    const end = Math.min(n, first + PIECE_WORDS);
    const last = end >= n;
    const slots = grammar.slots.slice(first, last ? n : Math.min(n, end + OVERLAP_WORDS));
    const piece: GrammarSpec = { ...grammar, slots };
    let span = Math.ceil(WINDOW_SPREAD * slots.length * perWord) + WINDOW_PAD;
    let aligned: AlignedReading;
    let own: UnitSegment[];
    for (;;) {
      const window = { startFrame: cursor, endFrame: last ? frames : Math.min(frames, cursor + span) };
      aligned = await alignWindow(backend, pcm, piece, window);
      if (!aligned.result.ok) return null;
      own = aligned.result.units.filter((u) => u.slot >= 0 && u.slot < end - first);
      const lastEnd = own.length ? own[own.length - 1].endFrame : cursor;
      if (window.endFrame >= frames || window.endFrame - lastEnd > CROWDED_END) break;
      span *= 2;
    }
    const next = last ? frames : own.length ? own[own.length - 1].endFrame : cursor;
    for (const u of aligned.result.ok ? aligned.result.units : []) {
      if (u.startFrame >= cursor && u.endFrame <= next && (u.slot < 0 || u.slot < end - first)) units.push(u.slot >= 0 ? { ...u, slot: u.slot + first } : u);
    }
    loop.push(...aligned.loop.filter((s) => s.startFrame >= cursor && s.startFrame < next));
    cursor = next;
  }
  return { result: { ok: true, frames, units }, loop };
}

/** Read words on each side of a run of skipped words that its rescue window takes in, at least. */
const RESCUE_CONTEXT_WORDS = 3;
/** A rescue window grows by further read words until it spans this many frames (stable feature normalisation). */
const RESCUE_MIN_FRAMES = 3 * FRAMES_PER_SECOND;

/** Words [first, end) of the reading aligned again, over one window of the audio. */
export interface RescueWindow {
  first: number;
  end: number;
  window: FrameWindow;
}

/**
 * The required-slot alignment that rescues skipped words (evidence.ts), made only where it is
 * needed: around each run of skipped words, over the audio between the read words that enclose
 * the run and its context, all concurrently. Slots outside the windows are left unaligned.
 * When a window cannot be aligned, the first pass has lost the thread there (its read words
 * are not where it put them) and the whole reading is aligned with required slots instead.
 * `read[i]` is the span of word i in the first pass, or null when it was skipped.
 */
export async function alignSkipped(
  backend: AcousticBackend,
  pcm: Int16Array,
  required: GrammarSpec,
  read: readonly (FrameWindow | null)[],
): Promise<{ result: AlignResult; windows: RescueWindow[] }> {
  const frames = Math.floor(pcm.length / SAMPLES_PER_FRAME);
  const windows = rescueSpans(read, frames);
  const results = await Promise.all(
    windows.map(async ({ first, end, window }) => {
      const piece: GrammarSpec = { ...required, slots: required.slots.slice(first, end) };
      return { first, aligned: await alignWindow(backend, pcm, piece, window) };
    }),
  );
  if (results.some((r) => !r.aligned.result.ok)) {
    const whole = await alignReading(backend, pcm, required);
    return { result: whole.result, windows: [{ first: 0, end: read.length, window: { startFrame: 0, endFrame: frames } }] };
  }
  const units: UnitSegment[] = [];
  for (const { first, aligned } of results) {
    if (aligned.result.ok) units.push(...aligned.result.units.map((u) => (u.slot >= 0 ? { ...u, slot: u.slot + first } : u)));
  }
  return { result: { ok: true, frames, units }, windows };
}

/** Word ranges [first, end) around runs of skipped words, with the audio windows between their enclosing read words. */
export function rescueSpans(read: readonly (FrameWindow | null)[], frames: number): RescueWindow[] {
  const n = read.length;
  const out: RescueWindow[] = [];
  let i = 0;
  while (i < n) {
    if (read[i]) {
      i++;
      continue;
    }
    let first = i;
    let end = i;
    while (end < n && !read[end]) end++;
    let before = 0;
    let after = 0;
    const span = () => ({ startFrame: edgeBefore(read, first), endFrame: edgeAfter(read, end, frames) });
    while ((before < RESCUE_CONTEXT_WORDS || after < RESCUE_CONTEXT_WORDS || span().endFrame - span().startFrame < RESCUE_MIN_FRAMES) && (first > 0 || end < n)) {
      if (first > 0) before += read[--first] ? 1 : 0;
      if (end < n) after += read[end++] ? 1 : 0;
    }
    // Skipped words next to the context join this window: its edges are read words.
    while (first > 0 && !read[first - 1]) first--;
    while (end < n && !read[end]) end++;
    const last = out[out.length - 1];
    if (last && first < last.end) {
      last.end = end;
      last.window = { startFrame: last.window.startFrame, endFrame: edgeAfter(read, end, frames) };
    } else {
      out.push({ first, end, window: span() });
    }
    i = end;
  }
  return out;
}

/** End of the last read word before index `first` (0 when none). */
function edgeBefore(read: readonly (FrameWindow | null)[], first: number): number {
  for (let k = first - 1; k >= 0; k--) if (read[k]) return read[k]!.endFrame;
  return 0;
}

/** Start of the first read word from index `end` (the audio's end when none). */
function edgeAfter(read: readonly (FrameWindow | null)[], end: number, frames: number): number {
  for (let k = end; k < read.length; k++) if (read[k]) return read[k]!.startFrame;
  return frames;
}
