/**
 * Validity of the Mandarin engine on native read speech (AISHELL S0150): correct readings,
 * substitutions, wrong tones, omissions, sibilants given at the other place (flat against
 * retroflex) and insertions, each made by a seeded alteration of the reference
 * (tools/validity-zh-cases.ts). Prints a table and ends with one JSON line.
 *
 *   npm run validity:zh -- --subset      CI: 16 sentences (about 75 s on an idle 2-core machine)
 *   npm run validity:zh                  all sentences without Latin letters (long)
 *   options: --limit N, --seed S, --data DIR (another speaker's folder of the same layout:
 *            transcripts.tsv of id and text, and ID.flac or ID.wav),
 *            --only correct,omission (run only these measures; the alterations are drawn as
 *            always, so each case is the one a full run makes), --misses (list the omission
 *            cases whose added characters were not reported skipped, and every substituted
 *            character, said > given, with the other characters flagged in its reading, and
 *            the characters flagged in each reading as written),
 *            --tone-model FILE (another tone model, e.g. one trained on half the
 *            utterances: tools/train-tone-zh.ts --held-out-model), --initial-model FILE and
 *            --final-model FILE (other classifiers of the syllable's parts, likewise:
 *            tools/train-part-zh.ts --held-out-model)
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio, type DecodedAudio } from '../src/audio/decode.js';
import { parseEvaluationConfig } from '../src/evaluation/config.js';
import { presentReadAloud } from '../src/assessment/presenter.js';
import { spansOutOfOrder } from '../src/assessment/timeline.js';
import { createMandarinEngine, type MandarinEngine } from '../src/zh/engine/engine.js';
import { createInThreadBackend } from '../src/acoustic/backend.js';
import { loadConfig } from '../src/config.js';
import { syllableTable, type SyllableTable } from '../src/zh/engine/syllables.js';
import { analyzeZhText } from '../src/zh/engine/text.js';
import { loadToneModel } from '../src/zh/tone/classifier.js';
import { arg, DATA as S0150, recordingIn, REPO } from './s0150.js';
import { insertionCase, omissionCase, omissionsAccounted, placeCase, rng, SUBSTITUTION_KINDS, substitutionCase, toneCase, type SubstitutionKind } from './validity-zh-cases.js';

const DATA = path.resolve(arg('--data') ?? S0150);
const SUBSET = process.argv.includes('--subset');
const SEED = Number(arg('--seed') ?? 20261121);
const MEASURES = ['correct', 'substitution', 'tone', 'omission', 'place', 'insertion'] as const;
const ONLY = new Set(arg('--only')?.split(',') ?? MEASURES);
const MISSES = process.argv.includes('--misses');
const TONE_MODEL = arg('--tone-model');
const INITIAL_MODEL = arg('--initial-model');
const FINAL_MODEL = arg('--final-model');

type Word = { word: string; readType: number; readStatus: string; charType: number; scores: { overall: number } };

class Tally {
  n = 0;
  k = 0;
  add(hit: boolean): void {
    this.n++;
    if (hit) this.k++;
  }
  get rate(): number {
    return this.n ? this.k / this.n : NaN;
  }
}

/** How `--misses` marks a character: `-` skipped, `~` mispronounced. */
const mark = (w: Word) => (w.readStatus === 'skipped' ? '-' : w.readStatus === 'mispronounced' ? '~' : '');

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/**
 * Readings whose timed units (characters and extra speech, in the order the response lists
 * them) overlap or run backwards in time, or hold a phone outside their span: none is expected.
 */
const spanFaults = new Tally();

async function run(engine: MandarinEngine, audio: DecodedAudio, cfg: Record<string, unknown>, diag = false) {
  const config = parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', ...cfg });
  const a = await engine.assess(config, audio);
  spanFaults.add(spansOutOfOrder(a));
  const body = presentReadAloud(a, config, { readtypeDiagnosis: diag });
  return { a, words: body.result.words as Word[] };
}

function utterances(): { id: string; text: string }[] {
  const all = fs.readFileSync(path.join(DATA, 'transcripts.tsv'), 'utf8').trim().split('\n').map((l) => {
    const [id, text] = l.split('\t');
    return { id, text };
  });
  const clean = all.filter((u) => [...u.text].every((c) => /\p{Script=Han}/u.test(c)) && [...u.text].length >= 6);
  const limit = Number(arg('--limit') ?? (SUBSET ? 16 : clean.length));
  const step = Math.max(1, Math.floor(clean.length / limit));
  return clean.filter((_, i) => i % step === 0).slice(0, limit);
}

async function main(): Promise<void> {
  const t0 = Date.now();
  const backend = createInThreadBackend(loadConfig(process.env, REPO), { langs: ['zh'] });
  const engine = await createMandarinEngine({ backend, modelsDir: path.join(REPO, 'models'), toneModel: TONE_MODEL, initialModel: INITIAL_MODEL, finalModel: FINAL_MODEL });
  const table: SyllableTable = syllableTable(backend.lexicon('zh'));
  const list = utterances();
  const r = rng(SEED);
  const overall: number[] = [];
  const fr = new Tally();
  const subRecall = new Tally();
  /** Recall per kind of substitution: which part of the syllable was changed. */
  const subByKind = new Map<SubstitutionKind, Tally>();
  let subFlagged = 0;
  let subTrue = 0;
  const toneRecall = new Tally();
  const toneFa = new Tally();
  const toneRec = new Tally();
  const omRecall = new Tally();
  const omAccounted = new Tally();
  /** Spoken characters of the omission cases reported skipped: what the recall costs. */
  const omSpokenSkipped = new Tally();
  const integrityErr: number[] = [];
  const insRecall = new Tally();
  // Sibilant place draws from a generator of its own, so the other measures' cases stay as they were.
  const placeRng = rng(SEED + 1);
  const placeRecall = new Tally();
  const placeByKind = new Map<string, Tally>();
  for (const [i, u] of list.entries()) {
    const audio = await decodeAudio(fs.readFileSync(recordingIn(DATA, u.id)));
    const chars = [...u.text];
    const zh = analyzeZhText(u.text);
    // 1. Correct reading.
    if (ONLY.has('correct')) {
      const c = await run(engine, audio, { referenceText: u.text });
      overall.push(c.a.overall);
      const read = c.words.filter((w) => w.charType === 0 && (w.readType === 0 || w.readType === 2));
      read.forEach((w) => fr.add(w.readStatus !== 'correct'));
      // Each character flagged in a reading as written, by its place among the read characters.
      const flagged = read.flatMap((w, k) => (w.readStatus !== 'correct' ? [`${k}${mark(w)}`] : []));
      if (MISSES && flagged.length) process.stderr.write(`correct ${u.id} false ${flagged.join(' ')}\n`);
      c.a.units.filter((x) => x.readType === 0 && x.tone && x.tone.heard !== null && x.tone.expected <= 4 && x.tone.citation !== 5).forEach((x) => toneRec.add(x.tone!.heard === x.tone!.expected));
    }
    // 2. Substitution.
    const subKinds = [i, i + 1].map((j) => SUBSTITUTION_KINDS[j % SUBSTITUTION_KINDS.length]);
    const sub = substitutionCase(r, table, zh, subKinds);
    if (ONLY.has('substitution')) {
    const s = await run(engine, audio, { referenceText: u.text, refPinyin: sub.refPinyin });
    const sRead = s.words.filter((w) => w.charType === 0);
    sRead.forEach((w, k) => {
      const flagged = w.readStatus !== 'correct';
      const j = sub.altered.indexOf(k);
      if (j >= 0) {
        subRecall.add(flagged);
        const kind = subKinds[j % subKinds.length];
        if (!subByKind.has(kind)) subByKind.set(kind, new Tally());
        subByKind.get(kind)!.add(flagged);
      }
      if (flagged) {
        subFlagged++;
        if (sub.altered.includes(k)) subTrue++;
      }
    });
    if (MISSES) {
      // Each altered character: said > given, the kind changed, and whether it was flagged; then
      // every other character flagged (`n`: next to an altered one).
      const said = zh.read.map((t) => zh.tokens[t].syllable);
      const given = sub.refPinyin.split(' ');
      sub.altered.forEach((k, j) => process.stderr.write(`substitution ${u.id} ${k} ${said[k]}>${given[k].replace(/\d$/, '')} ${subKinds[j % subKinds.length]} ${sRead[k]?.readStatus === 'correct' ? 'missed' : 'caught' + mark(sRead[k])}\n`));
      const others = sRead.flatMap((w, k) => (w.readStatus !== 'correct' && !sub.altered.includes(k) ? [`${k}${mark(w)}${sub.altered.some((q) => Math.abs(q - k) === 1) ? 'n' : ''}`] : []));
      if (others.length) process.stderr.write(`substitution ${u.id} false ${others.join(' ')}\n`);
    }
    }
    // 3. Tone.
    const tc = toneCase(r, zh);
    if (tc && ONLY.has('tone')) {
      const t = await run(engine, audio, { referenceText: u.text, refPinyin: tc.refPinyin });
      const tu = t.a.units.filter((x) => x.charType === 0 && x.readType !== 1 && x.readType !== 3);
      tu.forEach((x, k) => {
        if (!x.tone || x.tone.heard === null) return;
        if (tc.altered.includes(k)) toneRecall.add(x.tone.error);
        else if (!tc.altered.some((q) => Math.abs(q - k) === 1) && x.tone.citation !== 5) toneFa.add(x.tone.error);
      });
    }
    // 4. Omission.
    const donor = list[(i + 7) % list.length].text;
    const om = omissionCase(r, chars, donor);
    if (ONLY.has('omission')) {
      const o = await run(engine, audio, { referenceText: om.referenceText });
      const oRead = o.words.filter((w) => w.charType === 0);
      om.altered.forEach((k) => omRecall.add(oRead[k]?.readStatus === 'skipped'));
      const skippedAt = new Set(oRead.flatMap((w, k) => (w.readStatus === 'skipped' ? [k] : [])));
      const accounted = omissionsAccounted([...om.referenceText], om.altered, skippedAt);
      om.altered.forEach((_, j) => omAccounted.add(j < accounted));
      oRead.forEach((_, k) => {
        if (!om.altered.includes(k)) omSpokenSkipped.add(skippedAt.has(k));
      });
      integrityErr.push(Math.abs(o.a.dimensions.integrity - (100 * chars.length) / (chars.length + 2)));
      if (MISSES && om.altered.some((k) => oRead[k]?.readStatus !== 'skipped')) {
        const marks = oRead.map((w, k) => `${om.altered.includes(k) ? '[' : ''}${w.word}${mark(w)}${om.altered.includes(k) ? ']' : ''}`);
        process.stderr.write(`miss ${u.id} ${accounted < om.altered.length ? 'strict' : 'swap'} ${marks.join('')}\n`);
      }
    }
    // 4b. Sibilant place: one flat or retroflex initial given at the other place.
    const pc = placeCase(placeRng, table, zh);
    if (pc && ONLY.has('place')) {
      const p = await run(engine, audio, { referenceText: u.text, refPinyin: pc.refPinyin });
      const pRead = p.words.filter((w) => w.charType === 0);
      if (!placeByKind.has(pc.kind)) placeByKind.set(pc.kind, new Tally());
      for (const k of pc.altered) {
        const flagged = pRead[k]?.readStatus !== 'correct';
        placeRecall.add(flagged);
        placeByKind.get(pc.kind)!.add(flagged);
      }
    }
    // 5. Insertion (readtype diagnosis on).
    const ins = insertionCase(r, chars);
    if (!ONLY.has('insertion')) {
      process.stderr.write(`${i + 1}/${list.length} ${u.id}\n`);
      continue;
    }
    const n = await run(engine, audio, { referenceText: ins.referenceText }, true);
    let found = 0;
    let refSeen = -1;
    for (const w of n.words) {
      if (w.readType === 0 || w.readType === 2) refSeen++;
      else if (Math.abs(refSeen - ins.removedAfter) <= 1) found++;
    }
    insRecall.add(found >= 1);
    insRecall.add(found >= 2);
    process.stderr.write(`${i + 1}/${list.length} ${u.id}\n`);
  }
  await backend.close();
  const pct = (x: number) => (Number.isNaN(x) ? 'n/a' : `${(100 * x).toFixed(1)}%`);
  const figures = {
    sentences: list.length,
    seed: SEED,
    overallMedian: Math.round(10 * quantile(overall, 0.5)) / 10,
    overallP10: Math.round(10 * quantile(overall, 0.1)) / 10,
    falseRejection: round(fr.rate),
    substitutionRecall: round(subRecall.rate),
    substitutionPrecision: round(subFlagged ? subTrue / subFlagged : NaN),
    substitutionRecallByKind: Object.fromEntries(SUBSTITUTION_KINDS.map((k) => [k, round(subByKind.get(k)?.rate ?? NaN)])),
    toneErrorRecall: round(toneRecall.rate),
    toneFalseAlarm: round(toneFa.rate),
    toneRecognition: round(toneRec.rate),
    toneRecognitionHeldOut: loadToneModel(TONE_MODEL).heldOutAccuracy,
    omissionRecall: round(omRecall.rate),
    omissionRecallInterchangeable: round(omAccounted.rate),
    omissionSpokenSkipped: round(omSpokenSkipped.rate),
    integrityMeanAbsError: Math.round(10 * (integrityErr.reduce((a, b) => a + b, 0) / Math.max(1, integrityErr.length))) / 10,
    insertionRecall: round(insRecall.rate),
    placeRecall: round(placeRecall.rate),
    placeCases: placeRecall.n,
    placeRecallByKind: Object.fromEntries([...placeByKind].sort().map(([k, t]) => [k, { n: t.n, recall: round(t.rate) }])),
    readings: spanFaults.n,
    readingsWithSpansOutOfOrder: spanFaults.k,
    seconds: Math.round((Date.now() - t0) / 1000),
  };
  const rows: [string, string, string][] = [
    ['correct: median overall', String(figures.overallMedian), '>= 90'],
    ['correct: 10th percentile overall', String(figures.overallP10), ''],
    ['correct: false rejections', pct(fr.rate), '<= 5%'],
    ['substitution: recall', pct(subRecall.rate), '>= 90%'],
    ...SUBSTITUTION_KINDS.map((k): [string, string, string] => [`substitution: recall, ${k} changed`, pct(subByKind.get(k)?.rate ?? NaN), '']),
    ['substitution: precision', pct(figures.substitutionPrecision ?? NaN), '>= 90%'],
    ['tone: error recall', pct(toneRecall.rate), '>= 85%'],
    ['tone: false alarms', pct(toneFa.rate), '<= 10%'],
    ['tone: recognition (training speaker)', pct(toneRec.rate), '>= 85%'],
    ['tone: recognition (held-out half)', pct(figures.toneRecognitionHeldOut), '>= 85%'],
    ['omission: recall of skipped', pct(omRecall.rate), '>= 95%'],
    ['omission: recall, identical chars swap', pct(omAccounted.rate), ''],
    ['omission: spoken chars reported skipped', pct(omSpokenSkipped.rate), ''],
    ['omission: |integrity - true read %|', String(figures.integrityMeanAbsError), ''],
    ['insertion: recall (diagnosis on)', pct(insRecall.rate), ''],
    [`sibilant place: recall (${placeRecall.n} cases)`, pct(placeRecall.rate), ''],
    ...[...placeByKind].sort().map(([k, t]): [string, string, string] => [`sibilant place: ${k} (${t.n})`, pct(t.rate), '']),
    [`every reading: spans out of order (of ${spanFaults.n})`, String(spanFaults.k), '0'],
  ];
  console.log(`Mandarin validity, ${list.length} sentences of ${path.basename(DATA)}, seed ${SEED}`);
  for (const [name, value, target] of rows) console.log(`${name.padEnd(40)} ${value.padStart(8)}  ${target}`);
  console.log(JSON.stringify(figures));
}

function round(x: number): number | null {
  return Number.isNaN(x) ? null : Math.round(1000 * x) / 1000;
}

await main();
