/**
 * Trains the Mandarin tone classifier (src/zh/tone/model.json) on native read speech:
 * AISHELL speaker S0150 in ../shared/data/zh/aishell-s0150, labels from the transcript through
 * the text layer (pinyin-pro in context, sandhi applied: the tone a native realises). Neutral
 * tones are left out.
 *
 *   npx tsx tools/train-tone-zh.ts [--limit N] [--cache FILE] [--dry-run] [--no-augment]
 *     [--renderings train|test|none] [--hidden H] [--epochs E] [--folds F] [--l2 L] [--seed S]
 *     [--out FILE] [--held-out-model FILE] [--voice] [--cut whole|short|both]
 *
 * `--cache` keeps the alignments, pitch and level tracks (in a temporary file, never in the
 * repository; the renderings' in FILE.higher and FILE.lower beside it) so feature or classifier
 * changes retrain in minutes. Held-out figures (tone
 * recognition, confusion matrix, other voices, tone-error recall and false alarms per
 * threshold) are measured on odd-numbered utterances with a model trained on the even ones;
 * the shipped model is then trained on all of them. `--dry-run` prints without writing the
 * model. Seeded, so runs are reproducible (`--seed` draws another initialisation); `--out` writes
 * the model elsewhere. `--voice` aligns as the engine does, decoded for the reader's voice (the
 * shipped model was trained without it; docs/mandarin-engine.md, "Tone model").
 * `--held-out-model` also writes the model trained on the even-numbered utterances alone, with
 * the odd ones it never saw listed in `heldOut`, so that the engine can be measured on those
 * (`npm run validity:zh -- --data DIR --tone-model FILE`, DIR holding them).
 * `--renderings` (default train): the recordings are also rendered as a higher and a lower
 * voice with sox (RENDERINGS), aligned and pitch-tracked anew, and trained on (`test`: only
 * measured on, their held-out half; `none`: neither). sox must be on the PATH.
 *
 * `--cut` (default both): train on the utterances, on the short readings they are cut into
 * (`shortReadings`: words of 1 to 3 syllables read alone, each with its own pitch register), or
 * on both; the held-out half is measured on both kinds either way.
 *
 * Two stages (classifier.ts `context`): the first ensemble classifies each syllable alone; the
 * second reads its features with the first stage's posteriors of the syllable and of its judged
 * neighbours. The second stage is trained on posteriors the first could not have fitted: each
 * half of the training utterances classified by a first stage trained on the other half.
 */
import fs from 'node:fs';
import type { AlignedSyllable } from '../src/zh/engine/align.js';
import { analyzeZhText } from '../src/zh/engine/text.js';
import { pitchContext, readingSpan, spanContext, toneEvidence } from '../src/zh/tone/extract.js';
import { PitchAnalysis } from '../src/dsp/pitch.js';
import { RANGE_FLOOR_ST } from '../src/zh/tone/features.js';
import { classifyTone, classifyTones, contextInput, isJudgedTone, MODEL_PATH, type ToneModel, type ToneStages } from '../src/zh/tone/classifier.js';
import { acceptedTones } from '../src/zh/engine/sandhi.js';
import { trainEnsemble, type TrainOptions } from './mlp-ensemble.js';
import { alignedUtterances, arg, cached, RENDERINGS, transcripts, type Rendering } from './s0150.js';

interface Utterance {
  id: string;
  syllables: (Pick<AlignedSyllable, 'startFrame' | 'endFrame' | 'finalStart' | 'finalEnd'> & { phones: [string, number, number][] } | null)[];
  tones: number[];
  f0: number[];
  voicing: number[];
  levelDb: number[];
  medianHz: number;
  rangeSt: number;
}

function extract(limit: number, voice: boolean, rendering: Rendering | null = null): Promise<Utterance[]> {
  // --voice: aligned as the engine aligns, decoded for the reader's voice (engine.ts `assess`).
  return alignedUtterances(
    limit,
    rendering,
    ({ id, zh, audio, al }) => {
      const ctx = pitchContext(new PitchAnalysis(audio.pcm, audio.sampleRate), readingSpan(al.syllables));
      if (!ctx) return null;
      return {
        id,
        syllables: al.syllables.map((s) => (s ? { startFrame: s.startFrame, endFrame: s.endFrame, finalStart: s.finalStart, finalEnd: s.finalEnd, phones: s.phones.map((p) => [p.phone, p.startFrame, p.endFrame] as [string, number, number]) } : null)),
        tones: zh.read.map((i) => zh.tokens[i].sandhiTone),
        f0: [...ctx.f0],
        voicing: [...ctx.voicing].map((v) => Math.round(v * 100) / 100),
        levelDb: [...ctx.levelDb].map((v) => Math.round(v * 10) / 10),
        medianHz: ctx.medianHz,
        rangeSt: ctx.rangeSt,
      };
    },
    voice,
  );
}

/** One syllable of the data: features, label (tone − 1) and what the error measurement needs. */
interface Sample {
  x: number[];
  y: number;
  utt: number;
  /** Tones a native may realise (sandhi.ts). */
  accepted: number[];
  /** Whether the validity protocol may alter this tone (tools/validity-zh-cases.ts, toneCase). */
  alterable: boolean;
  /** The syllable's place in its reading, and the voice (variant) of the reading. */
  k: number;
  voice: string;
}

/**
 * The same reading by another voice, for speaker generality when one speaker is all there is:
 * pitch excursions around the median scaled by `gain` (a narrower or wider range) and time
 * stretched by `tempo` (slower > 1). The alignment is stretched with it.
 */
function variant(u: Utterance, gain: number, tempo: number): Utterance {
  const n = Math.round(u.f0.length * tempo);
  const at = (i: number) => Math.min(u.f0.length - 1, Math.floor(i / tempo));
  const f = (x: number) => Math.round(x * tempo);
  return {
    ...u,
    f0: Array.from({ length: n }, (_, i) => (u.f0[at(i)] > 0 ? u.medianHz * (u.f0[at(i)] / u.medianHz) ** gain : 0)),
    voicing: Array.from({ length: n }, (_, i) => u.voicing[at(i)]),
    levelDb: Array.from({ length: n }, (_, i) => u.levelDb[at(i)]),
    rangeSt: Math.max(RANGE_FLOOR_ST, u.rangeSt * gain),
    syllables: u.syllables.map((x) => (x ? { startFrame: f(x.startFrame), endFrame: f(x.endFrame), finalStart: f(x.finalStart), finalEnd: f(x.finalEnd), phones: x.phones.map(([p, a, b]) => [p, f(a), f(b)]) } : null)),
  };
}

/** Voices the model is trained on: the speaker as recorded, narrower and wider, slower and faster. */
const TRAIN_VOICES = [
  [1, 1],
  [0.7, 1],
  [1.4, 1],
  [1, 0.8],
  [1, 1.25],
] as const;
/** Voices the held-out half is also measured on (further from the speaker than the training ones). */
const TEST_VOICES = [
  [0.6, 1],
  [1.6, 1],
  [1, 0.75],
  [1, 1.35],
] as const;

/** Frames kept either side of a word cut from a reading (0.35 s), as an app records around a word read alone. */
const SHORT_PAD = 35;
/** Lengths in syllables, in turn, of the short readings an utterance is cut into: words read alone. */
const SHORT_LENGTHS = [1, 2, 3, 2];

/**
 * The utterance cut into short readings of SHORT_LENGTHS syllables, each a reading of its own
 * (`offset`: its first syllable's place in the utterance): its frames from SHORT_PAD before its
 * first syllable to SHORT_PAD after its last, its register taken from itself as the engine takes
 * a word's (`spanContext`). A word read alone gives the classifier two syllables to place the
 * reader's range from; trained on sentences only, it flagged about one tone in five of words cut
 * from the speaker's own correct sentences.
 */
function shortReadings(u: Utterance): { offset: number; reading: Utterance }[] {
  const out: { offset: number; reading: Utterance }[] = [];
  for (let offset = 0, turn = 0; offset < u.syllables.length; offset += SHORT_LENGTHS[turn++ % SHORT_LENGTHS.length]) {
    const length = SHORT_LENGTHS[turn % SHORT_LENGTHS.length];
    const part = u.syllables.slice(offset, offset + length);
    if (part.length < length || part.some((x) => x === null)) continue;
    const from = Math.max(0, part[0]!.startFrame - SHORT_PAD);
    const to = Math.min(u.f0.length, part[part.length - 1]!.endFrame + SHORT_PAD);
    const shift = (f: number) => f - from;
    const syllables = part.map((x) => ({ startFrame: shift(x!.startFrame), endFrame: shift(x!.endFrame), finalStart: shift(x!.finalStart), finalEnd: shift(x!.finalEnd), phones: x!.phones.map(([p, a, b]) => [p, shift(a), shift(b)] as [string, number, number]) }));
    const span = readingSpan(syllables.map((x) => ({ ...x, score: 0, phones: [] })));
    const ctx = span && spanContext(u.f0.slice(from, to), u.voicing.slice(from, to), u.levelDb.slice(from, to), span);
    if (!ctx) continue;
    out.push({ offset, reading: { id: u.id, syllables, tones: u.tones.slice(offset, offset + length), f0: [...ctx.f0], voicing: [...ctx.voicing], levelDb: [...ctx.levelDb], medianHz: ctx.medianHz, rangeSt: ctx.rangeSt } });
  }
  return out;
}

/** Which readings of each utterance `samples` takes: the utterance, its short readings, or both. */
type Cut = 'whole' | 'short' | 'both';

/**
 * Samples of the utterances in each voice. `index` numbers the utterances (the speaker's own
 * recordings and their renderings share their number, so both go to the same half); `tag` names
 * a rendering; `cut` says whether the whole utterance, its short readings or both are read.
 */
function samples(utts: Utterance[], voices: readonly (readonly [number, number])[] = [[1, 1]], index?: Map<string, number>, tag = '', cut: Cut = 'whole'): Sample[] {
  const text = new Map(transcripts());
  const out: Sample[] = [];
  utts.forEach((original, i) => {
    const n = index?.get(original.id) ?? i;
    const zh = analyzeZhText(text.get(original.id)!);
    const citation = zh.read.map((i) => zh.tokens[i].tone);
    const read = (u: Utterance, offset: number, voice: string) => {
      const ctx = { f0: Float32Array.from(u.f0), voicing: Float32Array.from(u.voicing), levelDb: Float32Array.from(u.levelDb), medianHz: u.medianHz, rangeSt: u.rangeSt };
      const syl = u.syllables.map((s) => (s ? { ...s, score: 0, phones: s.phones.map(([phone, startFrame, endFrame]) => ({ phone, startFrame, endFrame, score: 0 })) } : null));
      toneEvidence(ctx, syl, u.tones).features.forEach((f, j) => {
        const k = offset + j;
        if (!f || !isJudgedTone(u.tones[j], citation[k])) return;
        const ch = zh.tokens[zh.read[k]].text;
        const alterable = citation[k] !== 3 && citation[k - 1] !== 3 && citation[k + 1] !== 3 && ch !== '一' && ch !== '不';
        out.push({ x: [...f], y: u.tones[j] - 1, utt: n, accepted: acceptedTones(zh.tokens, zh.read, k), alterable, k: j, voice });
      });
    };
    for (const [gain, tempo] of voices) {
      const u = gain === 1 && tempo === 1 ? original : variant(original, gain, tempo);
      if (cut !== 'short') read(u, 0, `${tag}${gain}x${tempo}`);
      if (cut !== 'whole') for (const { offset, reading } of shortReadings(u)) read(reading, offset, `${tag}${gain}x${tempo} from ${offset}`);
    }
  });
  return out;
}

/** The samples of each reading (one utterance in one voice), as arrays by syllable place. */
function readings(data: Sample[]): Sample[][] {
  const groups = new Map<string, Sample[]>();
  for (const s of data) {
    const key = `${s.utt}/${s.voice}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(s);
  }
  return [...groups.values()];
}

/** A value of each sample of a reading, by syllable place (null where the reading has no sample). */
function byPlace<T>(group: Sample[], value: (s: Sample) => T): (T | null)[] {
  const out: (T | null)[] = new Array(Math.max(...group.map((s) => s.k)) + 1).fill(null);
  for (const s of group) out[s.k] = value(s);
  return out;
}

/** Posteriors as the engine computes them (classifier.ts `classifyTones`, judged syllables as context). */
function posteriors(m: ToneStages, data: Sample[]): Map<Sample, Float64Array> {
  const out = new Map<Sample, Float64Array>();
  for (const group of readings(data)) {
    const features = byPlace(group, (s) => s.x);
    const probs = classifyTones(m, features, features.map((f) => f !== null));
    for (const s of group) out.set(s, probs[s.k]!);
  }
  return out;
}

/** Both stages: the second on first-stage posteriors from the other half of the utterances. */
function trainStages(data: Sample[], opts: TrainOptions): ToneStages {
  const first = trainEnsemble(data, opts);
  const rank = new Map([...new Set(data.map((s) => s.utt))].map((u, i) => [u, i]));
  const halves = [0, 1].map((h) => data.filter((s) => rank.get(s.utt)! % 2 === h));
  const others = halves.map((_, h) => trainEnsemble(halves[1 - h], opts));
  const rows = halves.flatMap((half, h) =>
    readings(half).flatMap((group) => {
      const p = byPlace(group, (s) => classifyTone(others[h], s.x));
      return group.map((s) => ({ x: contextInput(s.x, p, s.k), y: s.y, utt: s.utt }));
    }),
  );
  return { ...first, context: trainEnsemble(rows, opts) };
}

function accuracy(post: Map<Sample, Float64Array>, data: Sample[]): number {
  return data.filter((s) => {
    const p = post.get(s)!;
    return p.indexOf(Math.max(...p)) === s.y;
  }).length / data.length;
}

/**
 * Error detection on held-out syllables, as tools/validity-zh.ts measures it but without the
 * engine: a false alarm is a native tone whose accepted tones hold less than `threshold` of the
 * posterior; an alterable tone replaced by each other tone of 1, 2, 4 is caught when that tone
 * holds less than `threshold` (the syllable's own expected tone is never a feature, so the
 * posterior does not change with the alteration).
 */
function errorDetection(post: Map<Sample, Float64Array>, data: Sample[], threshold: number): { recall: number; falseAlarms: number } {
  let fa = 0;
  let caught = 0;
  let altered = 0;
  for (const s of data) {
    const p = post.get(s)!;
    if (s.accepted.reduce((a, t) => a + p[t - 1], 0) < threshold) fa++;
    if (!s.alterable) continue;
    for (const t of [1, 2, 4]) {
      if (t === s.y + 1) continue;
      altered++;
      if (p[t - 1] < threshold) caught++;
    }
  }
  return { recall: caught / altered, falseAlarms: fa / data.length };
}

function confusion(post: Map<Sample, Float64Array>, data: Sample[]): number[][] {
  const out = [0, 1, 2, 3].map(() => [0, 0, 0, 0]);
  for (const s of data) {
    const p = post.get(s)!;
    out[s.y][p.indexOf(Math.max(...p))]++;
  }
  return out;
}

/** Highest threshold (0.005 steps) whose held-out false alarms stay within `budget`, and its recall. */
function recallAtFalseAlarms(post: Map<Sample, Float64Array>, data: Sample[], budget: number): { threshold: number; recall: number; falseAlarms: number } {
  let best = { threshold: 0, recall: 0, falseAlarms: 0 };
  for (let t = 0.005; t < 0.5; t += 0.005) {
    const r = errorDetection(post, data, t);
    if (r.falseAlarms > budget) break;
    best = { threshold: Math.round(t * 1000) / 1000, ...r };
  }
  return best;
}

const THRESHOLDS = [0.06, 0.08, 0.1, 0.12, 0.15, 0.18, 0.2, 0.25];

async function main(): Promise<void> {
  const limit = Number(arg('--limit') ?? Infinity);
  const cache = arg('--cache');
  const voice = process.argv.includes('--voice');
  const utts = await cached<Utterance>(cache, () => extract(limit, voice));
  const augment = process.argv.includes('--no-augment') ? undefined : TRAIN_VOICES;
  const index = new Map(utts.map((u, n) => [u.id, n]));
  const rendered: { rendering: Rendering; utts: Utterance[] }[] = [];
  const renderings = arg('--renderings') ?? 'train';
  if (!['train', 'test', 'none'].includes(renderings)) throw new Error('--renderings takes train (trained and measured on), test (measured on) or none');
  for (const rendering of renderings === 'none' ? [] : RENDERINGS) {
    const file = cache ? `${cache}.${rendering.name}` : undefined;
    const r = await cached(file, async () => (await extract(limit, voice, rendering)).filter((u) => index.has(u.id)));
    rendered.push({ rendering, utts: r });
  }
  const cut = (arg('--cut') ?? 'both') as Cut;
  if (!['whole', 'short', 'both'].includes(cut)) throw new Error('--cut takes whole (the utterances), short (their short readings) or both');
  const data = [...samples(utts, augment, undefined, '', cut), ...(renderings === 'train' ? rendered.flatMap((r) => samples(r.utts, augment, index, `${r.rendering.name} `, cut)) : [])];
  const opts = { hidden: Number(arg('--hidden') ?? 48), epochs: Number(arg('--epochs') ?? 60), folds: Number(arg('--folds') ?? 5), seed: Number(arg('--seed') ?? 1), l2: Number(arg('--l2') ?? 3e-3) };
  const test = samples(utts).filter((s) => s.utt % 2 === 1);
  const half = trainStages(data.filter((s) => s.utt % 2 === 0), opts);
  const post = posteriors(half, test);
  const heldOut = accuracy(post, test);
  const alone = accuracy(posteriors({ ...half, context: undefined }, test), test);
  process.stderr.write(`held-out half: ${(100 * heldOut).toFixed(1)}% (first stage alone ${(100 * alone).toFixed(1)}%)\n`);
  const curve = THRESHOLDS.map((t) => ({ threshold: t, ...errorDetection(post, test, t) }));
  for (const c of curve) process.stderr.write(`threshold ${c.threshold.toFixed(2)}: recall ${(100 * c.recall).toFixed(1)}%, false alarms ${(100 * c.falseAlarms).toFixed(1)}%\n`);
  const atBudget = recallAtFalseAlarms(post, test, 0.1);
  // Words read alone: the held-out utterances cut into short readings.
  const shortTest = samples(utts, [[1, 1]], undefined, '', 'short').filter((s) => s.utt % 2 === 1);
  const shortPost = posteriors(half, shortTest);
  const shortHeldOut = accuracy(shortPost, shortTest);
  process.stderr.write(`held-out half cut into short readings (${SHORT_LENGTHS.join(', ')} syllables): ${(100 * shortHeldOut).toFixed(1)}%\n`);
  for (const t of THRESHOLDS) {
    const r = errorDetection(shortPost, shortTest, t);
    process.stderr.write(`  short, threshold ${t.toFixed(2)}: recall ${(100 * r.recall).toFixed(1)}%, false alarms ${(100 * r.falseAlarms).toFixed(1)}%\n`);
  }
  process.stderr.write(`held-out confusion (rows: expected tone 1-4, columns: heard):\n${confusion(post, test).map((r) => r.join('\t')).join('\n')}\n`);
  const otherVoices = TEST_VOICES.map(([gain, tempo]) => {
    const voice = samples(utts, [[gain, tempo]]).filter((s) => s.utt % 2 === 1);
    return { gain, tempo, accuracy: accuracy(posteriors(half, voice), voice) };
  });
  for (const v of otherVoices) process.stderr.write(`held-out half, range x${v.gain}, tempo x${v.tempo}: ${(100 * v.accuracy).toFixed(1)}%\n`);
  for (const r of rendered) {
    const voice = samples(r.utts, [[1, 1]], index, `${r.rendering.name} `).filter((s) => s.utt % 2 === 1);
    process.stderr.write(`held-out half rendered ${r.rendering.name} (${r.rendering.effects.join(' ')}): ${(100 * accuracy(posteriors(half, voice), voice)).toFixed(1)}%\n`);
  }
  const heldOutModel = arg('--held-out-model');
  if (heldOutModel) {
    // `heldOut` lists the utterances the half model never saw (the odd-numbered ones).
    const ids = utts.filter((_, n) => n % 2 === 1).map((u) => u.id);
    const file = { ...half, version: 'held-out half', trainedOn: 'even-numbered utterances', heldOutAccuracy: Math.round(heldOut * 1000) / 1000, heldOut: ids };
    fs.writeFileSync(heldOutModel, JSON.stringify(file) + '\n');
  }
  const full = trainStages(data, opts);
  const model: ToneModel = {
    ...full,
    version: 'tone-zh-9',
    trainedOn: `AISHELL S0150, ${samples(utts).length} syllables${renderings === 'train' ? ', also rendered as a higher and a lower voice' : ''} (with range and tempo variants${cut === 'whole' ? '' : cut === 'short' ? ', cut into short readings' : ' and their short readings'} ${data.length}) (tones 1-4, sandhi applied), labels from pinyin-pro through the text layer; two stages`,
    heldOutAccuracy: Math.round(heldOut * 1000) / 1000,
  };
  if (!process.argv.includes('--dry-run')) fs.writeFileSync(arg('--out') ?? MODEL_PATH, JSON.stringify(model) + '\n');
  console.log(JSON.stringify({ syllables: data.length, heldOutAccuracy: model.heldOutAccuracy, heldOutFirstStageAlone: Math.round(alone * 1000) / 1000, heldOutShortReadings: Math.round(shortHeldOut * 1000) / 1000, heldOutAtTenPercentFalseAlarms: atBudget, trainAccuracy: accuracy(posteriors(full, data), data) }));
}

await main();
