import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { compileProgressGrammar, mergeReading, readHypothesis } from '../../src/acoustic/progress-grammar.js';
import { ProgressHost } from '../../src/acoustic/progress-host.js';
import { referenceFromText } from '../../src/acoustic/progress-reference.js';
import { loadDictionary } from '../../src/acoustic/lexicon.js';
import { SphinxEngine } from '../../src/acoustic/sphinx/engine.js';
import type { AcousticLang, AlignUnit, ProgressSession, ProgressUpdate } from '../../src/acoustic/types.js';
import { decodeAudio } from '../../src/audio/decode.js';
import { resolveModels } from '../../src/models.js';
import { REPO_ROOT, SHARED_DATA_DIR } from '../helpers/app.js';

const MODELS = path.join(REPO_ROOT, 'models');
const paths = resolveModels(MODELS);
const CHUNK = 640; // 40 ms at 16 kHz, inside the 20-100 ms range clients send
/** Lag bound in audio time: a unit must be reported within 600 ms of its aligned end (the target). */
const LAG_MS = 600;

let host: ProgressHost;
let engine: SphinxEngine;
const lex = { zh: loadDictionary(paths.zh.dict, 'zh'), en: loadDictionary(paths.en.dict, 'en') };

before(async () => {
  host = await ProgressHost.start({ modelsDir: MODELS, threads: 1 });
  engine = SphinxEngine.create(MODELS);
});
after(async () => {
  await host.close();
  engine.close();
});

const u = (label: string, ...prons: string[]): AlignUnit => ({ label, prons: prons.map((p) => p.split(' ')) });

test('unit: the grammar accepts every prefix, each unit skippable at a cost', () => {
  const g = compileProgressGrammar([u('还', 'h ai', 'h uan'), u('有', 'y ou')], 1e-20);
  assert.match(g.jsgf, /public <utt> = \[ <u0> \[ <u1> \] \];/);
  assert.match(g.jsgf, /<u0> = \/1\/ \( p_h_ai \| p_h_uan \) \| \/1e-20\/ <NULL>;/);
  assert.deepEqual([...g.unitWords[0]], ['p_h_ai', 'p_h_uan']);
  assert.throws(() => compileProgressGrammar([]));
  assert.throws(() => compileProgressGrammar([{ label: 'x', prons: [] }]));
});

test('unit: hypotheses are placed earliest-first, fillers ignored, progress never goes back', () => {
  const sets = [new Set(['p_a']), new Set(['p_b']), new Set(['p_a']), new Set(['p_c'])];
  assert.deepEqual(readHypothesis(['<sil>', 'p_a', '[NOISE]', 'p_b'], sets), { readUnits: 2, matched: [true, true, false, false] });
  // "a c": a takes unit 0 (not 2), c skips units 1-2.
  assert.deepEqual(readHypothesis(['p_a', 'p_c'], sets), { readUnits: 4, matched: [true, false, false, true] });
  assert.deepEqual(readHypothesis(['p_z'], sets).readUnits, 0);
  const merged = mergeReading({ readUnits: 3, matched: [true, true, true, false] }, { readUnits: 1, matched: [true, false, false, false] });
  assert.deepEqual(merged, { readUnits: 3, matched: [true, true, true, false] });
});

async function pcmOf(file: string): Promise<Int16Array> {
  return (await decodeAudio(fs.readFileSync(file))).pcm;
}

/** Pushes the audio in 40 ms chunks (as fast as decoded); returns every update and the final one. */
async function run(session: ProgressSession, pcm: Int16Array): Promise<{ updates: ProgressUpdate[]; final: ProgressUpdate }> {
  const updates: ProgressUpdate[] = [];
  for (let s = 0; s < pcm.length; s += CHUNK) updates.push(await session.push(pcm.subarray(s, s + CHUNK)));
  return { updates, final: await session.finish() };
}

function alignedEnds(lang: AcousticLang, pcm: Int16Array, units: AlignUnit[]): number[] {
  const res = engine.align(lang, pcm, { slots: units.map((x) => ({ alternatives: [x] })) });
  assert.ok(res.ok, 'forced alignment of the reference');
  return res.units.filter((x) => x.slot >= 0).map((x) => x.endFrame * 10);
}

function checkCorrectReading(updates: ProgressUpdate[], final: ProgressUpdate, ends: number[]): void {
  const n = ends.length;
  for (let i = 1; i < updates.length; i++) assert.ok(updates[i].readUnits >= updates[i - 1].readUnits, 'readUnits is monotone');
  assert.ok(final.readUnits >= updates[updates.length - 1].readUnits);
  assert.equal(final.readUnits, n, 'a correct reading reaches the last unit');
  assert.ok(final.matched.filter(Boolean).length >= Math.ceil(0.9 * n), `matched ${final.matched.filter(Boolean).length}/${n}`);
  // Lag in audio time: audioMs of the first update that reports unit i, minus its aligned end.
  for (let i = 0; i < n; i++) {
    const first = updates.find((x) => x.readUnits > i);
    if (!first) continue; // only the final update reported it: the last unit, checked above
    assert.ok(first.audioMs - ends[i] <= LAG_MS, `unit ${i} reported ${first.audioMs - ends[i]} ms after its end`);
  }
  const late = ends.filter((_, i) => !updates.some((x) => x.readUnits > i)).length;
  assert.ok(late <= 2, `${late} units were only reported by finish()`);
  assert.ok(final.decodedMs > 0 && Math.abs(final.audioMs - updates[updates.length - 1].audioMs) < 1);
}

test('Mandarin: a correct AISHELL reading is tracked monotonically to the end within 0.6 s', async () => {
  const dir = path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150');
  const refs = new Map(fs.readFileSync(path.join(dir, 'transcripts.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t') as [string, string]));
  const id = 'BAC009S0150W0200';
  const { units } = referenceFromText(refs.get(id) ?? '', 'zh', lex.zh);
  const pcm = await pcmOf(path.join(dir, `${id}.flac`));
  const { updates, final } = await run(host.open('zh', units), pcm);
  checkCorrectReading(updates, final, alignedEnds('zh', pcm, units));
});

test('English: a correct librivox reading is tracked monotonically to the end within 0.6 s', async () => {
  const dir = path.join(SHARED_DATA_DIR, 'en', 'librivox');
  const id = 'sense_and_sensibility_01_austen_64kb-0870';
  const { units, missing } = referenceFromText(fs.readFileSync(path.join(dir, `${id}.txt`), 'utf8'), 'en', lex.en);
  assert.deepEqual(missing, []);
  const pcm = await pcmOf(path.join(dir, `${id}.flac`));
  const { updates, final } = await run(host.open('en', units), pcm);
  checkCorrectReading(updates, final, alignedEnds('en', pcm, units));
});

test('a reading that stops half way stays within 2 units of half', async () => {
  const dir = path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150');
  const refs = new Map(fs.readFileSync(path.join(dir, 'transcripts.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t') as [string, string]));
  const id = 'BAC009S0150W0300';
  const { units } = referenceFromText(refs.get(id) ?? '', 'zh', lex.zh);
  const pcm = await pcmOf(path.join(dir, `${id}.flac`));
  const ends = alignedEnds('zh', pcm, units);
  const half = Math.floor(units.length / 2);
  // Audio up to 100 ms after the aligned end of unit half-1, then 1 s of the recording's own
  // leading silence (the reader pauses), then the end of the session.
  const cut = pcm.subarray(0, ((ends[half - 1] + 100) * 16) | 0);
  const pause = pcm.subarray(0, 16000 * 0.25);
  const audio = new Int16Array(cut.length + 4 * pause.length);
  audio.set(cut);
  for (let k = 0; k < 4; k++) audio.set(pause, cut.length + k * pause.length);
  const { final } = await run(host.open('zh', units), audio);
  assert.ok(Math.abs(final.readUnits - half) <= 2, `stopped at ${half}, reported ${final.readUnits} of ${units.length}`);
  assert.ok(final.matched.slice(half + 2).every((m) => !m), 'nothing after the stop is matched');
});

test('sessions are isolated: two interleaved sessions on one thread both finish correctly; closed sessions refuse audio', async () => {
  const dir = path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150');
  const refs = new Map(fs.readFileSync(path.join(dir, 'transcripts.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t') as [string, string]));
  const ids = ['BAC009S0150W0150', 'BAC009S0150W0201'];
  const units = ids.map((id) => referenceFromText(refs.get(id) ?? '', 'zh', lex.zh).units);
  const pcms = await Promise.all(ids.map((id) => pcmOf(path.join(dir, `${id}.flac`))));
  const sessions = units.map((x) => host.open('zh', x));
  assert.deepEqual(host.load(), [2]);
  const longest = Math.max(...pcms.map((p) => p.length));
  for (let s = 0; s < longest; s += CHUNK) {
    await Promise.all(sessions.map((ses, k) => (s < pcms[k].length ? ses.push(pcms[k].subarray(s, s + CHUNK)) : null)));
  }
  const finals = await Promise.all(sessions.map((ses) => ses.finish()));
  finals.forEach((f, k) => assert.equal(f.readUnits, units[k].length, `session ${k}`));
  assert.deepEqual(host.load(), [0]);
  await assert.rejects(sessions[0].push(new Int16Array(CHUNK)));
  const bad = host.open('zh', [{ label: '?', prons: [['no_such_phone']] }]);
  await assert.rejects(bad.push(new Int16Array(CHUNK)));
  bad.close();
  assert.deepEqual(host.load(), [0]);
});

test('a session finished without audio, or fed only silence, reports nothing read', async () => {
  const units = referenceFromText('他们', 'zh', lex.zh).units;
  const empty = await host.open('zh', units).finish();
  assert.equal(empty.readUnits, 0);
  assert.equal(empty.audioMs, 0);
  const quiet = host.open('zh', units);
  const first = await quiet.push(new Int16Array(0));
  assert.equal(first.readUnits, 0);
  const final = (await run(quiet, new Int16Array(16000))).final;
  assert.equal(final.readUnits, 0);
  assert.ok(final.matched.every((m) => !m));
  assert.equal(final.audioMs, 1000);
});
