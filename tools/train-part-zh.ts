/**
 * Trains a classifier of a Mandarin syllable's part (src/zh/parts: `--part initial` writes
 * initial.json, `--part final` final.json) on native read speech: AISHELL speaker S0150
 * (tools/s0150.ts), each character's initial and final from its pinyin in context (the text
 * layer), their frames from the alignment of the transcript with every character required.
 *
 *   npx tsx tools/train-part-zh.ts --part initial|final [--limit N] [--cache FILE] [--dry-run]
 *     [--renderings train|test|none] [--warps A,B,...] [--hidden H] [--epochs E] [--folds F]
 *     [--l2 L] [--seed S] [--out FILE] [--held-out-model FILE]
 *     [--misread N [--misread-train] [--misread-seed S]]
 *
 * One speaker is all there is, so every recording is also read through frequency warps
 * (`--warps`, default WARPS: vocal tract length perturbation, src/zh/parts/features.ts). sox
 * renders each recording higher and lower (RENDERINGS), aligned anew: by default (`--renderings
 * test`) only measured on, as voices the model never heard; `train` trains on them too, `none`
 * leaves them out. `--cache` keeps the alignments (the renderings' in FILE.higher and FILE.lower
 * beside it; both parts read the same cache). Held-out figures are measured on the odd-numbered
 * utterances with a model trained on the even ones (with `train`, their renderings included),
 * then the shipped model is trained on all. Printed per voice: how often the most probable class
 * is the one read, the share of read parts whose posterior falls under each threshold (false
 * alarms), and the share caught of the parts the validity protocol substitutes (every other
 * syllable that keeps the other part, tools/validity-zh-cases.ts). `--held-out-model` also
 * writes the even-half model, with the odd-numbered utterances listed in `heldOut`.
 * `--misread N` also aligns each utterance to N references with two syllables substituted as the
 * validity protocol substitutes them (cached in FILE.misreadN), and prints for the held-out half
 * how the model does on the substituted characters and their neighbours aligned that way, as
 * the engine meets them; `--misread-train` trains on those parts too (labelled with what was said).
 */
import fs from 'node:fs';
import { createInThreadBackend } from '../src/acoustic/backend.js';
import { loadConfig } from '../src/config.js';
import { syllableTable, type SyllableTable } from '../src/zh/engine/syllables.js';
import { melSpectra } from '../src/dsp/mel-segments.js';
import { partFeatures, type SyllablePart } from '../src/zh/parts/features.js';
import { classifyPart, modelPath, type PartModel } from '../src/zh/parts/classifier.js';
import { PART_POSTERIOR } from '../src/zh/engine/parts.js';
import { trainEnsemble } from './mlp-ensemble.js';
import { alignedUtterances, arg, cached, readAudio, RENDERINGS, REPO, type Rendering } from './s0150.js';
import { positions, rng, substitute, SUBSTITUTION_KINDS } from './validity-zh-cases.js';
import { alignReading } from '../src/zh/engine/align.js';

type AlignedPhones = ([string, number, number][] | null)[];

interface Utterance {
  id: string;
  /** Toneless syllable of each read character. */
  labels: string[];
  /** Each character's aligned phones: [phone, startFrame, endFrame]. */
  phones: AlignedPhones;
}

/**
 * The utterance aligned to references with syllables substituted (`--misread`): as the engine
 * meets a misread character, aligned to a syllable that was not said. `altered` are the changed
 * positions, `given` their syllables.
 */
interface Misread {
  id: string;
  copies: { altered: number[]; given: string[]; phones: AlignedPhones }[];
}

/** Frequency warps every recording is read through (1: as recorded). */
const WARPS = [0.82, 0.88, 0.94, 1, 1.06, 1.12, 1.18];
const THRESHOLDS = [1e-2, 3e-3, 1e-3, 3e-4, 1e-4];
/** The model file's version, per part. */
const VERSION: Record<SyllablePart, string> = { initial: 'initial-zh-1', final: 'final-zh-1' };

function extract(limit: number, rendering: Rendering | null = null): Promise<Utterance[]> {
  return alignedUtterances(limit, rendering, ({ id, zh, al }) => ({
    id,
    labels: zh.read.map((i) => zh.tokens[i].syllable),
    phones: al.syllables.map((s) => (s ? s.phones.map((p) => [p.phone, p.startFrame, p.endFrame] as [string, number, number]) : null)),
  }));
}

/**
 * `copies` alignments per utterance of its reference with two syllables substituted as the
 * validity protocol substitutes them (seeded per utterance, from `seed`), every character required.
 */
async function extractMisread(utts: Utterance[], copies: number, seed: number): Promise<Misread[]> {
  const backend = createInThreadBackend(loadConfig(process.env, REPO), { langs: ['zh'] });
  const table = syllableTable(backend.lexicon('zh'));
  const out: Misread[] = [];
  for (const [n, u] of utts.entries()) {
    const audio = await readAudio(u.id, null);
    const r = rng(seed * 7919 + n);
    const m: Misread = { id: u.id, copies: [] };
    for (let c = 0; c < copies; c++) {
      const altered = positions(r, u.labels.length, 2);
      const given = altered.map((k, j) => substitute(r, table, u.labels[k], SUBSTITUTION_KINDS[(n + c + j) % SUBSTITUTION_KINDS.length]));
      const labels = u.labels.map((l, k) => (altered.includes(k) ? given[altered.indexOf(k)] : l));
      const al = await alignReading(backend, table, labels, audio.pcm, { gop: false, optional: false });
      if (al.ok) m.copies.push({ altered, given, phones: al.syllables.map((s) => (s ? s.phones.map((p) => [p.phone, p.startFrame, p.endFrame] as [string, number, number]) : null)) });
    }
    out.push(m);
    if (n % 50 === 0) process.stderr.write(`${n} utterances misread\n`);
  }
  await backend.close();
  return out;
}

interface Sample {
  x: number[];
  y: number;
  utt: number;
  label: string;
  /** For a sample aligned to a substituted reference: the syllable given there (else absent). */
  given?: string;
  /** The frequency warp it was read through (1: as recorded). */
  warp: number;
}

/** What the tool works on: the part, its classes, and the model's syllable table. */
interface Task {
  part: SyllablePart;
  classes: string[];
  table: SyllableTable;
}

const partOf = (task: Task, syllable: string) => (task.part === 'initial' ? task.table.initialOf(syllable) : task.table.finalOf(syllable));
const otherPartOf = (task: Task, syllable: string) => (task.part === 'initial' ? task.table.finalOf(syllable) : task.table.initialOf(syllable));

/** Samples of the utterances read through each warp; `index` numbers them (renderings share the original's number). */
async function samples(task: Task, utts: Utterance[], rendering: Rendering | null, warps: readonly number[], index: Map<string, number>, misread: ReadonlyMap<string, Misread> = new Map()): Promise<Sample[]> {
  const out: Sample[] = [];
  const sample = (spectra: Float32Array[], u: Utterance, phones: AlignedPhones[number], k: number, warp: number, given?: string) => {
    const y = task.classes.indexOf(partOf(task, u.labels[k]));
    const x = phones && y >= 0 ? partFeatures(spectra, phones.map(([, startFrame, endFrame]) => ({ startFrame, endFrame })), task.part) : null;
    if (x) out.push({ x, y, utt: index.get(u.id)!, label: u.labels[k], warp, ...(given === undefined ? {} : { given }) });
  };
  for (const u of utts) {
    const audio = await readAudio(u.id, rendering);
    for (const warp of warps) {
      const spectra = melSpectra(audio.pcm, warp);
      u.phones.forEach((phones, k) => sample(spectra, u, phones, k, warp));
      // Misread characters and their neighbours, aligned to the substituted reference, labelled with what was said.
      for (const c of misread.get(u.id)?.copies ?? []) {
        const near = [...new Set(c.altered.flatMap((k) => [k - 1, k, k + 1]))].filter((k) => k >= 0 && k < u.labels.length);
        for (const k of near) {
          const j = c.altered.indexOf(k);
          sample(spectra, u, c.phones[k], k, warp, j >= 0 ? c.given[j] : u.labels[k]);
        }
      }
    }
  }
  return out;
}

/** The syllables the validity protocol may put in place of `label` when it changes this part. */
function substitutes(task: Task, label: string): string[] {
  const { table } = task;
  return table.syllables.filter((s) => !table.same(s, label) && otherPartOf(task, s) === otherPartOf(task, label) && partOf(task, s) !== partOf(task, label));
}

/** Accuracy, false alarms and substitutions caught per threshold, on held-out samples. */
function measure(task: Task, model: PartModel, test: Sample[]) {
  let right = 0;
  const fa = THRESHOLDS.map(() => 0);
  const caught = THRESHOLDS.map(() => 0);
  let subs = 0;
  for (const s of test) {
    const p = classifyPart(model, s.x);
    if (p.indexOf(Math.max(...p)) === s.y) right++;
    THRESHOLDS.forEach((t, i) => p[s.y] < t && fa[i]++);
    const others = substitutes(task, s.label);
    if (others.length === 0) continue;
    subs++;
    for (const o of others) {
      const q = p[task.classes.indexOf(partOf(task, o))];
      THRESHOLDS.forEach((t, i) => q < t && (caught[i] += 1 / others.length));
    }
  }
  return { accuracy: right / test.length, thresholds: THRESHOLDS.map((t, i) => ({ threshold: t, falseAlarms: fa[i] / test.length, caught: caught[i] / subs })) };
}

/**
 * On characters aligned to a substituted reference (`--misread`), as the engine meets them:
 * of the parts the substitution changed, the share whose given part falls under each threshold
 * (caught); of the parts it did not change (the other part of a substituted character, its
 * neighbours), the share whose part, said and given, does (false alarms).
 */
function measureMisread(task: Task, model: PartModel, test: Sample[]) {
  const fa = THRESHOLDS.map(() => 0);
  const caught = THRESHOLDS.map(() => 0);
  let changed = 0;
  for (const s of test) {
    const p = classifyPart(model, s.x);
    const g = task.classes.indexOf(partOf(task, s.given!));
    if (g !== s.y) changed++;
    THRESHOLDS.forEach((t, i) => {
      if (p[g] >= t) return;
      if (g === s.y) fa[i]++;
      else caught[i]++;
    });
  }
  const same = test.length - changed;
  return THRESHOLDS.map((t, i) => ({ threshold: t, falseAlarms: fa[i] / same, caught: caught[i] / changed }));
}

const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
function report(task: Task, name: string, m: ReturnType<typeof measure>): void {
  process.stderr.write(`${name}: most probable ${task.part} right ${pct(m.accuracy)}\n`);
  for (const t of m.thresholds) process.stderr.write(`  under ${t.threshold}: read ${task.part}s ${pct(t.falseAlarms)}, substituted ${task.part}s caught ${pct(t.caught)}\n`);
}

async function main(): Promise<void> {
  const given = arg('--part');
  if (given !== 'initial' && given !== 'final') throw new Error('--part takes initial or final');
  const part: SyllablePart = given;
  const limit = Number(arg('--limit') ?? Infinity);
  const cache = arg('--cache');
  const utts = await cached<Utterance>(cache, () => extract(limit));
  const backend = createInThreadBackend(loadConfig(process.env, REPO), { langs: ['zh'] });
  const table = syllableTable(backend.lexicon('zh'));
  await backend.close();
  const partsOf = (f: (s: string) => string) => [...new Set(table.syllables.map(f))].sort();
  const task: Task = { part, table, classes: part === 'initial' ? partsOf(table.initialOf) : partsOf(table.finalOf) };
  const index = new Map(utts.map((u, n) => [u.id, n]));
  const renderings = arg('--renderings') ?? 'test';
  if (!['train', 'test', 'none'].includes(renderings)) throw new Error('--renderings takes train (trained and measured on), test (measured on) or none');
  const warps = arg('--warps')?.split(',').map(Number) ?? WARPS;
  if (!warps.includes(1)) throw new Error('--warps must include 1 (the recordings as they are, which the figures are measured on)');
  const rendered: { rendering: Rendering; utts: Utterance[] }[] = [];
  for (const rendering of renderings === 'none' ? [] : RENDERINGS) {
    const file = cache ? `${cache}.${rendering.name}` : undefined;
    rendered.push({ rendering, utts: await cached<Utterance>(file, async () => (await extract(limit, rendering)).filter((u) => index.has(u.id))) });
  }
  // Each voice's samples are made once: trained on (through the warps), and measured on as recorded.
  const asRecorded = (xs: Sample[]) => xs.filter((s) => s.warp === 1 && s.utt % 2 === 1);
  // Alignments to substituted references: measured on (odd half), trained on with --misread-train.
  const copies = Number(arg('--misread') ?? 0);
  const misread = copies > 0 ? await cached<Misread>(cache ? `${cache}.misread${copies}` : undefined, () => extractMisread(utts, copies, Number(arg('--misread-seed') ?? 1))) : [];
  const all = await samples(task, utts, null, warps, index, new Map(misread.map((m) => [m.id, m])));
  const data = process.argv.includes('--misread-train') ? all : all.filter((s) => s.given === undefined);
  const heldOut = asRecorded(all.filter((s) => s.given === undefined));
  const misreadHeldOut = asRecorded(all.filter((s) => s.given !== undefined));
  const renderedHeldOut: Sample[][] = [];
  for (const r of rendered) {
    const own = await samples(task, r.utts, r.rendering, renderings === 'train' ? warps : [1], index);
    if (renderings === 'train') data.push(...own);
    renderedHeldOut.push(asRecorded(own));
  }
  const opts = { hidden: Number(arg('--hidden') ?? 32), epochs: Number(arg('--epochs') ?? 60), folds: Number(arg('--folds') ?? 5), seed: Number(arg('--seed') ?? 1), l2: Number(arg('--l2') ?? 1e-4), classes: task.classes.length };
  const describe = { part, classes: task.classes, version: 'held-out half', trainedOn: 'even-numbered utterances', heldOutAccuracy: 0 };
  const half: PartModel = { ...trainEnsemble(data.filter((s) => s.utt % 2 === 0), opts), ...describe };
  const asRead = measure(task, half, heldOut);
  report(task, 'held-out half', asRead);
  if (misreadHeldOut.length > 0) {
    process.stderr.write(`held-out half, aligned to substituted references (${misreadHeldOut.length} parts):\n`);
    for (const t of measureMisread(task, half, misreadHeldOut)) process.stderr.write(`  under ${t.threshold}: unchanged ${task.part}s ${pct(t.falseAlarms)}, substituted ${task.part}s caught ${pct(t.caught)}\n`);
  }
  rendered.forEach((r, i) => report(task, `held-out half rendered ${r.rendering.name} (${r.rendering.effects.join(' ')})`, measure(task, half, renderedHeldOut[i])));
  const heldOutAccuracy = Math.round(asRead.accuracy * 1000) / 1000;
  const heldOutModel = arg('--held-out-model');
  if (heldOutModel) fs.writeFileSync(heldOutModel, JSON.stringify({ ...half, heldOutAccuracy, heldOut: utts.filter((_, n) => n % 2 === 1).map((u) => u.id) }) + '\n');
  const summary = { part, samples: data.length, heldOutAccuracy, atThreshold: asRead.thresholds.find((t) => t.threshold === PART_POSTERIOR[part]) };
  if (!process.argv.includes('--dry-run')) {
    const model: PartModel = {
      part,
      classes: task.classes,
      ...trainEnsemble(data, opts),
      version: VERSION[part],
      trainedOn: `AISHELL S0150, ${utts.length} utterances${renderings === 'train' ? ', also rendered as a higher and a lower voice' : ''}, each through frequency warps ${warps.join(' ')} (${data.length} ${part}s), from pinyin-pro through the text layer`,
      heldOutAccuracy,
    };
    fs.writeFileSync(arg('--out') ?? modelPath(part), JSON.stringify(model) + '\n');
  }
  console.log(JSON.stringify(summary));
}

await main();
