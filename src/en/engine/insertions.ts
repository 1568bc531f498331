/**
 * Insertions and repetitions: speech the reader added to the reference. The optional-slot
 * alignment has no place for it, so it ends up in the silence between two words (then as loud
 * as speech, unlike a pause: at least LOUD_GAP_FRAMES within LOUD_DB of the reading's speech
 * level; before the first word and after the last one too), inside one word (then OVERLONG_RATIO
 * times as long as the reader's median pace per phone gives it, and OVERLONG_FRAMES over), or
 * spread over two words (which then hold EXCESS_PHONES more phones of the free phone loop,
 * decoded for GOP anyway, than the reader's median ratio of loop phones to expected phones
 * gives them).
 * 1. Repetitions: the whole reading is decoded once more with an optional slot after every word
 *    that may be that word again (`findRepetitions`). A repetition is a word that slot takes
 *    whose two tokens sound alike (`repeatLikeness`: DTW of log mel frames, similarity.ts),
 *    since the slot also takes other speech when nothing else can. No sign is needed: the
 *    aligner shares a repeated short word out over its neighbours, so that most repetitions
 *    show none, and the likeness keeps the slot quiet on correct readings.
 * 2. Insertions: only word pairs showing one of those signs (and not explained by a repetition)
 *    are decoded again over their window (the two words and what lies between; words the
 *    alignment skipped in between stay optional) with the backend's garbage loop of phones
 *    allowed around the two words (held back by its insertion penalty, so it only wins speech
 *    no word explains): a loop run of at least INSERTED_FRAMES is an inserted word. Where the
 *    loop finds nothing, a word of INSERTED_FRAMES or more that the repeat slot of step 1 took
 *    inside the pair's window but that does not sound like its twin (tokens alike in length,
 *    likeness over REPEATED_LIKENESS) is one: the slot's lighter cost lets it win speech the
 *    penalised loop loses.
 * The two are decoded apart because the loop's insertion penalty would hold the repeat slot
 * back as well. Both are check decodes (`quick`: word exits pruned harder than in the reading's
 * own word pass, for less CPU). The cost is printed by
 * `validity:en --only native`.
 */
import { INSERTION_LABEL, isNonSpeech, SAMPLES_PER_FRAME, type AcousticBackend, type AlignResult, type FrameWindow, type GrammarSlot, type PhoneSegment, type UnitSegment } from '../../acoustic/types.js';
import { readFrom, speechSpan, type ReadingEvidence, type WordEvidence } from './evidence.js';
import type { ReadingPlan } from './plan.js';
import { grammarOf } from './plan.js';
import { dtwDistance, meanFrame, meanNormalised, melFrames } from './similarity.js';

/** Frames of the gap within LOUD_DB of the speech level from which it may hide a word. */
export const LOUD_GAP_FRAMES = 10;
/** dB under the reading's speech level (95th percentile of frame energy) that still counts as speech. */
export const LOUD_DB = 15;
/** A word this many times its expected length (phones × the reader's frames per phone) ... */
export const OVERLONG_RATIO = 2;
/** ... and at least this many frames over it may hide a word. */
export const OVERLONG_FRAMES = 20;
/**
 * Loop phones over a word pair beyond what its pronunciations have (scaled by the reading's
 * own ratio of loop phones to expected phones) from which the pair may hide a word.
 */
export const EXCESS_PHONES = 4.5;
/** Frames the garbage loop must take to count as an inserted word (200 ms). */
export const INSERTED_FRAMES = 20;
/** Shortest token of a repeated word, frames (shorter ones are pieces of one token). */
export const REPEATED_FRAMES = 10;
/** Likeness (repeatLikeness) up to which the repeat slot's word counts as said twice. */
export const REPEATED_LIKENESS = 0.7;
/** Longest ratio of the two tokens' lengths of a repeated word. */
export const REPEATED_LENGTH_RATIO = 2;
/** Read words on each side of a window that the repeat's likeness is also measured against. */
const LIKENESS_NEIGHBOURS = 2;
/** Frames of margin around a window. */
const MARGIN = 3;

export interface ExtraSpeech {
  /** Reference word after which the extra speech was heard (-1: before the first word). */
  after: number;
  kind: 'inserted' | 'repeated';
  /** For a repetition: the reference word said again. */
  word: number | null;
  /** Loop phones heard over the extra speech (ARPAbet). */
  heard: string[];
  /** Frames the finding takes in: the extra speech, and for a repetition both tokens. */
  extent: FrameWindow;
  startFrame: number;
  endFrame: number;
}

/** Audio looked at before the first word and after the last one, frames at most. */
const EDGE_FRAMES = 150;

export interface CandidatePair {
  /** Reference index of the read word before (-1: the reading's start). */
  first: number;
  /** Reference index of the read word after (the word count: the reading's end). */
  second: number;
  loud: number;
  overlong: boolean;
  excess: number;
}

function median(v: number[]): number {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : 0;
}

/** Word pairs whose gap is loud or one of whose words is overlong. */
export function candidatePairs(ev: ReadingEvidence, energyDb: Float32Array, loop: readonly PhoneSegment[]): CandidatePair[] {
  const read = ev.words.filter((w) => w.status === 'read');
  if (read.length < 2) return [];
  const sorted = Float32Array.from(energyDb).sort();
  const speech = sorted[Math.floor(0.95 * (sorted.length - 1))] ?? -100;
  // The reader's pace and the loop's phones per expected phone, as medians over the words so
  // that the word hiding the extra speech does not set them.
  const perPhone = median(read.map((w) => (w.endFrame - w.startFrame) / Math.max(1, w.phones.length)));
  const overlong = (w: WordEvidence) => {
    const expected = w.phones.length * perPhone;
    const d = w.endFrame - w.startFrame;
    return d >= OVERLONG_RATIO * expected && d >= expected + OVERLONG_FRAMES;
  };
  const mids = loop.filter((p) => !isNonSpeech(p.phone)).map((p) => (p.startFrame + p.endFrame) / 2);
  const heard = (from: number, to: number) => mids.filter((m) => m >= from && m < to).length;
  const rate = median(read.map((w) => heard(w.startFrame, w.endFrame) / Math.max(1, w.phones.length)));
  const out: CandidatePair[] = [];
  const loudIn = (from: number, to: number) => {
    let n = 0;
    for (let f = Math.max(0, from); f < Math.min(energyDb.length, to); f++) if (energyDb[f] > speech - LOUD_DB) n++;
    return n;
  };
  // Speech before the first word or after the last one (a repeated first word, an added word).
  const lead = loudIn(read[0].startFrame - EDGE_FRAMES, read[0].startFrame);
  if (lead >= LOUD_GAP_FRAMES) out.push({ first: -1, second: read[0].index, loud: lead, overlong: false, excess: 0 });
  const last = read[read.length - 1];
  const tail = loudIn(last.endFrame, last.endFrame + EDGE_FRAMES);
  for (let k = 0; k + 1 < read.length; k++) {
    const a = read[k];
    const b = read[k + 1];
    const loud = loudIn(a.endFrame, b.startFrame);
    const long = overlong(a) || overlong(b);
    const excess = loop.length ? heard(a.startFrame, b.endFrame) - rate * (a.phones.length + b.phones.length) : 0;
    if (loud >= LOUD_GAP_FRAMES || long || excess >= EXCESS_PHONES) out.push({ first: a.index, second: b.index, loud, overlong: long, excess });
  }
  if (tail >= LOUD_GAP_FRAMES) out.push({ first: last.index, second: ev.words.length, loud: tail, overlong: false, excess: 0 });
  return out;
}

export interface PairDecode {
  pair: CandidatePair;
  units: UnitSegment[];
  found: ExtraSpeech[];
}

/**
 * Decodes one candidate pair's window with the garbage loop of phones allowed around the two
 * words (see the file comment). Words the alignment skipped between the two stay optional
 * slots, so that their speech is not taken for extra.
 */
export async function decodePair(backend: AcousticBackend, pcm: Int16Array, plan: ReadingPlan, ev: ReadingEvidence, pair: CandidatePair, loop: readonly PhoneSegment[] = []): Promise<PairDecode> {
  const slots = grammarOf(plan.entries, false).slots;
  const a = ev.words[pair.first] as WordEvidence | undefined;
  const b = ev.words[pair.second] as WordEvidence | undefined;
  const between = slots.slice(pair.first + 1, pair.second).map((slot) => ({ ...slot, optional: true }));
  const frames = Math.floor(pcm.length / SAMPLES_PER_FRAME);
  const window: FrameWindow = {
    startFrame: Math.max(0, (a ? a.startFrame : b!.startFrame - EDGE_FRAMES) - MARGIN),
    endFrame: Math.min(frames, (b ? b.endFrame : a!.endFrame + EDGE_FRAMES) + MARGIN),
  };
  const before = a ? [slots[pair.first]] : [];
  const after = b ? [slots[pair.second]] : [];
  const r = await backend.align('en', pcm, { slots: [...before, ...between, ...after], allowInsertions: true }, { window, quick: true });
  if (!r.ok) return { pair, units: [], found: [] };
  const ins = r.units.filter((u) => u.slot < 0 && u.label === INSERTION_LABEL);
  const insFrames = ins.reduce((s, u) => s + u.endFrame - u.startFrame, 0);
  if (insFrames < INSERTED_FRAMES) return { pair, units: r.units, found: [] };
  const [startFrame, endFrame] = [ins[0].startFrame, ins[ins.length - 1].endFrame];
  // Speech before the first word's token belongs after the word before it (a neighbour pair's).
  const first = r.units.find((u) => u.slot >= 0);
  const follows = first && startFrame < first.startFrame ? readFrom(ev.words, Number(first.label) - 1, -1) : lastBefore(r.units, startFrame, pair.first);
  return { pair, units: r.units, found: [{ after: follows, kind: 'inserted', word: null, heard: heardOver(loop, startFrame, endFrame), startFrame, endFrame, extent: { startFrame, endFrame } }] };
}

/**
 * How much closer the repeat slot's audio lies to the other token of its word than to any other
 * word nearby (DTW distance to the other token over the least distance to the others: under 1
 * when it is nearer its own word). The others are the window's other words and up to
 * LIKENESS_NEIGHBOURS read words on each side. Infinite when either token is shorter than
 * REPEATED_FRAMES or one is over REPEATED_LENGTH_RATIO times the other's length.
 */
function repeatLikeness(pcm: Int16Array, ev: ReadingEvidence, units: readonly UnitSegment[], rep: UnitSegment): number {
  const words = units.filter((u) => u.slot >= 0);
  const twin = words.find((u) => u !== rep && u.label === rep.label);
  if (!twin) return Infinity;
  // Two tokens of one word by one reader differ little in length.
  const [d1, d2] = [rep.endFrame - rep.startFrame, twin.endFrame - twin.startFrame];
  if (Math.min(d1, d2) < REPEATED_FRAMES || Math.max(d1, d2) > REPEATED_LENGTH_RATIO * Math.min(d1, d2)) return Infinity;
  const spans = words.filter((u) => u !== rep && u !== twin).map((u) => ({ startFrame: u.startFrame, endFrame: u.endFrame }));
  const first = Math.min(...words.map((u) => u.startFrame));
  const last = Math.max(...words.map((u) => u.endFrame));
  const read = ev.words.filter((w) => w.status === 'read');
  const before = read.filter((w) => w.endFrame <= first).slice(-LIKENESS_NEIGHBOURS);
  const after = read.filter((w) => w.startFrame >= last).slice(0, LIKENESS_NEIGHBOURS);
  for (const w of [...before, ...after]) spans.push({ startFrame: w.startFrame, endFrame: w.endFrame });
  if (spans.length === 0) return Infinity;
  const from = Math.min(first, ...spans.map((s) => s.startFrame));
  const to = Math.max(last, ...spans.map((s) => s.endFrame));
  const all = melFrames(pcm, from, to);
  const norm = meanNormalised(all, meanFrame(all));
  const cut = (s: { startFrame: number; endFrame: number }) => norm.slice(s.startFrame - from, s.endFrame - from);
  const own = cut(rep);
  const toTwin = dtwDistance(own, cut(twin));
  const toOther = Math.min(...spans.map((s) => dtwDistance(own, cut(s))));
  return toTwin / Math.max(1e-6, toOther);
}

/** The reference word of the last word unit of the decode that ends by `frame` (`fallback` when none). */
function lastBefore(units: readonly UnitSegment[], frame: number, fallback: number): number {
  const before = units.filter((u) => u.slot >= 0 && u.endFrame <= frame);
  return before.length ? Number(before[before.length - 1].label) : fallback;
}

export interface RepeatDecode {
  /** Repetitions: repeat-slot words whose two tokens sound alike. */
  repeated: ExtraSpeech[];
  /**
   * Repeat-slot words of INSERTED_FRAMES or more whose tokens are alike in length but not in
   * sound: speech no word explains, an insertion where a sign of extra speech shows too.
   */
  unlike: ExtraSpeech[];
}

/**
 * The repeat decode's call on the backend: after every word an optional slot that may be that
 * word again; read words are required, skipped ones stay optional; over the read words' span
 * and EDGE_FRAMES on each side. `read` records which words it took as read.
 */
export interface RepeatCall {
  read: boolean[];
  result: Promise<AlignResult>;
}

export function startRepeatDecode(backend: AcousticBackend, pcm: Int16Array, plan: ReadingPlan, ev: ReadingEvidence): RepeatCall | null {
  const read = ev.words.filter((w) => w.status === 'read');
  if (read.length === 0) return null;
  const base = grammarOf(plan.entries, false).slots;
  const slots: GrammarSlot[] = base.flatMap((slot, k) => [
    { ...slot, optional: ev.words[k].status !== 'read' },
    { optional: true, alternatives: slot.alternatives },
  ]);
  const frames = Math.floor(pcm.length / SAMPLES_PER_FRAME);
  const window: FrameWindow = {
    startFrame: Math.max(0, read[0].startFrame - EDGE_FRAMES),
    endFrame: Math.min(frames, read[read.length - 1].endFrame + EDGE_FRAMES),
  };
  const result = backend.align('en', pcm, { slots, optionalSilence: true }, { window, quick: true });
  // A call started early may go unused (findRepetitions); its failure must not go unhandled.
  result.catch(() => undefined);
  return { read: ev.words.map((w) => w.status === 'read'), result };
}

/**
 * Repetitions over the whole reading in one decode (startRepeatDecode). A word the repeat slot
 * takes is a repetition when its two tokens sound alike (`repeatLikeness`, measured as in a
 * pair's window: against the word next to the two tokens in the decode and LIKENESS_NEIGHBOURS
 * read words on each side). `early` is a decode started on the word pass's answer, used when it
 * took the same words as read as `ev` (its span then comes from the word pass, not the phones).
 */
export async function findRepetitions(
  backend: AcousticBackend,
  pcm: Int16Array,
  plan: ReadingPlan,
  ev: ReadingEvidence,
  loop: readonly PhoneSegment[] = [],
  early: RepeatCall | null = null,
): Promise<RepeatDecode> {
  const out: ExtraSpeech[] = [];
  const unlike: ExtraSpeech[] = [];
  const sameRead = early !== null && early.read.every((r, k) => r === (ev.words[k].status === 'read'));
  const call = sameRead ? early : startRepeatDecode(backend, pcm, plan, ev);
  if (!call) return { repeated: out, unlike };
  const r = await call.result;
  if (!r.ok) return { repeated: out, unlike };
  const words = r.units.filter((u) => u.slot >= 0);
  for (let i = 0; i < words.length; i++) {
    const rep = words[i];
    if (rep.slot % 2 === 0) continue;
    const twin = words[i - 1];
    if (!twin || twin.label !== rep.label) continue;
    // As in a pair's window: the two tokens and the word next to them.
    const next = words[i + 1] ?? words[i - 2];
    const local = [twin, rep, ...(next ? [next] : [])].map((u) => ({ ...u, slot: u === rep ? 1 : 0 }));
    const likeness = repeatLikeness(pcm, ev, local, local[1]);
    const word = Number(rep.label);
    if (likeness > REPEATED_LIKENESS) {
      // Speech no word explains, when a sign of extra speech is there too (findExtraSpeech).
      if (Number.isFinite(likeness) && rep.endFrame - rep.startFrame >= INSERTED_FRAMES) {
        unlike.push({ after: word, kind: 'inserted', word: null, heard: heardOver(loop, rep.startFrame, rep.endFrame), startFrame: rep.startFrame, endFrame: rep.endFrame, extent: { startFrame: rep.startFrame, endFrame: rep.endFrame } });
      }
      continue;
    }
    out.push({ after: word, kind: 'repeated', word, heard: heardOver(loop, rep.startFrame, rep.endFrame), startFrame: rep.startFrame, endFrame: rep.endFrame, extent: { startFrame: twin.startFrame, endFrame: rep.endFrame } });
  }
  return { repeated: out, unlike };
}

function heardOver(loop: readonly PhoneSegment[], from: number, to: number): string[] {
  return loop.filter((p) => !isNonSpeech(p.phone) && (p.startFrame + p.endFrame) / 2 >= from && (p.startFrame + p.endFrame) / 2 < to).map((p) => p.phone);
}

/** Extra speech of a reading, in reading order. */
export async function findExtraSpeech(
  backend: AcousticBackend,
  pcm: Int16Array,
  plan: ReadingPlan,
  ev: ReadingEvidence,
  energyDb: Float32Array,
  loop: readonly PhoneSegment[],
  early: RepeatCall | null = null,
): Promise<ExtraSpeech[]> {
  if (!ev.ok) return [];
  const span = (p: CandidatePair) => ({
    from: ev.words[p.first]?.startFrame ?? -Infinity,
    to: ev.words[p.second]?.endFrame ?? Infinity,
  });
  // The repeat decode and the candidate pairs' decodes are independent: they run side by side
  // (on the service's pool, on both cores), and a pair that a repetition explains is then
  // dropped, as if it had not been decoded for an insertion.
  const [{ repeated, unlike }, all] = await Promise.all([
    findRepetitions(backend, pcm, plan, ev, loop, early),
    Promise.all(candidatePairs(ev, energyDb, loop).map((p) => decodePair(backend, pcm, plan, ev, p, loop))),
  ]);
  const decoded = all.filter((d) => !repeated.some((f) => f.extent.startFrame < span(d.pair).to && f.extent.endFrame > span(d.pair).from));
  // A candidate pair the garbage loop found nothing in may still hold a repeat-slot word that is
  // not its twin (the loop's insertion penalty holds it back where the slot's is lighter).
  const within = (f: ExtraSpeech, p: CandidatePair) => f.startFrame >= span(p).from - MARGIN && f.endFrame <= span(p).to + MARGIN;
  const unexplained = decoded.filter((d) => d.found.length === 0).flatMap((d) => unlike.filter((f) => within(f, d.pair)));
  return dedupe([...repeated, ...decoded.flatMap((d) => d.found), ...unexplained]);
}

/**
 * Extra speech placed between the reference words it was heard between. Its own decodes align
 * those words again, so it may lie over frames the reading's alignment gave them (speech inside
 * an overlong word, a repeated word's second token inside the word's span): the read words
 * before and after it give those frames up, their phones cut to what is left, so that no two
 * spans overlap and the words are scored on their own speech. Extra speech reaching over the
 * start of the word before it or the end of the word after it is cut to leave each at least one
 * frame, and dropped when nothing is left. The word before it counts the extra speech's frames
 * (`extraAfter`), which are not a pause. Pure: new evidence and findings.
 */
export function placeExtraSpeech(ev: ReadingEvidence, found: readonly ExtraSpeech[]): { evidence: ReadingEvidence; extra: ExtraSpeech[] } {
  if (found.length === 0) return { evidence: ev, extra: [] };
  const words = [...ev.words];
  const extra: ExtraSpeech[] = [];
  for (const f of [...found].sort((x, y) => x.startFrame - y.startFrame)) {
    const [prev, next] = [readFrom(words, f.after, -1), readFrom(words, f.after + 1, 1)];
    const startFrame = prev >= 0 ? Math.max(f.startFrame, words[prev].startFrame + 1) : f.startFrame;
    const endFrame = next >= 0 ? Math.min(f.endFrame, words[next].endFrame - 1) : f.endFrame;
    if (endFrame <= startFrame) continue;
    if (prev >= 0 && words[prev].endFrame > startFrame) words[prev] = withSpan(words[prev], words[prev].startFrame, startFrame);
    if (next >= 0 && words[next].startFrame < endFrame) words[next] = withSpan(words[next], endFrame, words[next].endFrame);
    if (prev >= 0) words[prev] = { ...words[prev], extraAfter: (words[prev].extraAfter ?? 0) + endFrame - startFrame };
    extra.push({ ...f, startFrame, endFrame });
  }
  return { evidence: { ...ev, words, ...speechSpan(words) }, extra };
}

/** A read word cut to [startFrame, endFrame), its phones cut to the same frames. */
function withSpan(w: WordEvidence, startFrame: number, endFrame: number): WordEvidence {
  const clamp = (v: number) => Math.min(endFrame, Math.max(startFrame, v));
  return { ...w, startFrame, endFrame, phones: w.phones.map((p) => ({ ...p, startFrame: clamp(p.startFrame), endFrame: clamp(p.endFrame) })) };
}

/**
 * Overlapping pairs (a, b) and (b, c) can both find the same extra speech: of two findings
 * whose extents overlap, the first is kept.
 */
function dedupe(found: ExtraSpeech[]): ExtraSpeech[] {
  const out: ExtraSpeech[] = [];
  for (const f of [...found].sort((x, y) => x.extent.startFrame - y.extent.startFrame)) {
    const last = out[out.length - 1];
    if (last && f.extent.startFrame < last.extent.endFrame) continue;
    out.push(f);
  }
  return out;
}
