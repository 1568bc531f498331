import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../../src/audio/decode.js';
import { presentConnected } from '../../src/en/connected/present.js';
import { tempDir } from '../helpers/app.js';
import { audio, closeEngine, config, englishEngine, LIBRIVOX1, LJ1, SO762 } from './setup.js';

after(closeEngine);

test('connected: boundaries with linking and elision tags, rhythm metrics and flags in the spec shape', async () => {
  const { engine } = await englishEngine();
  const cfg = config({ coreType: 'connected', referenceText: LJ1.text });
  const r = await engine.assessConnected(cfg, await audio(...LJ1.file));
  const out = presentConnected(r, cfg);
  assert.equal(out.n_boundaries, 26);
  const boundaries = out.boundaries as { between: string[]; tags: string[]; gap_ms: number; continuity: number; realized: boolean | null }[];
  assert.ok(boundaries.length >= 24);
  const at = (a: string, b: string) => boundaries.find((x) => x.between[0] === a && x.between[1] === b);
  // Consonant-to-vowel: "most if", "arts and", "represented in"; linking r: "are at"; a final stop before a consonant: "at present".
  for (const [a, b] of [['most', 'if'], ['arts', 'and'], ['represented', 'in']]) assert.ok(at(a, b)?.tags.includes('linking_CV'), `${a} ${b}: ${JSON.stringify(at(a, b))}`);
  assert.ok(at('are', 'at')?.tags.includes('linking_r'));
  assert.ok(at('at', 'present')?.tags.includes('elision'));
  // The comma after "Printing" is not a linking position.
  assert.deepEqual(at('Printing', 'in')?.tags ?? [], []);
  for (const b of boundaries) assert.ok(b.continuity >= 0 && b.continuity <= 1 && b.gap_ms >= 0);
  const raw = out.raw as Record<string, number>;
  // Fluent native read English: nPVI_V 40-90, %V 35-60 (Grabe & Low 2002; Ramus et al. 1999).
  assert.ok(raw.nPVI_V > 40 && raw.nPVI_V < 90, `nPVI_V ${raw.nPVI_V}`);
  assert.ok(raw.pctV > 35 && raw.pctV < 60, `pctV ${raw.pctV}`);
  assert.ok((raw.linking_rate as number) >= 0.6, `linking_rate ${raw.linking_rate}`);
  assert.equal(out.calibrated, false);
  assert.equal(out.classifier, false);
  assert.equal(out.posterior_used, true);
  assert.ok((out.connected_overall as number) > 50, `connected_overall ${out.connected_overall}`);
});

test('connected: a halting reading with pauses between words links less than the fluent one', async () => {
  const { engine } = await englishEngine();
  const cfg = config({ coreType: 'connected', referenceText: LJ1.text });
  const fluent = await engine.assessConnected(cfg, await audio(...LJ1.file));
  // The same audio with 400 ms of silence cut in after every word boundary the fluent reading linked.
  const pcm = (await audio(...LJ1.file)).pcm;
  const cuts = fluent.boundaries.filter((b) => b.linkRealized).map((b) => Math.round((b.startMs * 16000) / 1000));
  const parts: Int16Array[] = [];
  let from = 0;
  for (const c of cuts) {
    parts.push(pcm.subarray(from, c), new Int16Array(6400));
    from = c;
  }
  parts.push(pcm.subarray(from));
  const joined = new Int16Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) joined.set(p, (o += p.length) - p.length);
  const halting = await engine.assessConnected(cfg, { pcm: joined, sampleRate: 16000, durationSec: joined.length / 16000, source: { format: 'wav', sampleRate: 16000, channels: 1 }, lowSampleRate: false });
  assert.ok(halting.linking < fluent.linking - 30, `linking ${halting.linking} vs ${fluent.linking}`);
  assert.ok(halting.connectedOverall < fluent.connectedOverall, `${halting.connectedOverall} vs ${fluent.connectedOverall}`);
});

test('alpha: letters are scored by their names (espeak-ng letters, generated in a temp folder)', async () => {
  const { engine } = await englishEngine();
  const dir = tempDir('kouyu-en-alpha-');
  const wav = path.join(dir, 'letters.wav');
  // espeak-ng reads single capitals as letter names; 16 kHz mono after sox.
  execFileSync('espeak-ng', ['-v', 'en-us', '-s', '120', '-w', path.join(dir, 'raw.wav'), 'K, Q, R, W.']);
  execFileSync('sox', [path.join(dir, 'raw.wav'), '-r', '16000', '-c', '1', wav, 'pad', '0.3', '0.3']);
  const pcm = await decodeAudio(fs.readFileSync(wav));
  const right = await engine.inspect(config({ coreType: 'alpha', referenceText: 'K Q R W' }), pcm);
  assert.equal(right.words.length, 4);
  assert.ok(right.words.every((w) => w.pronunciationSource === 'letter'));
  assert.ok(right.words.filter((w) => w.readStatus === 'correct').length >= 3, right.words.map((w) => w.readStatus).join());
  const wrong = await engine.inspect(config({ coreType: 'alpha', referenceText: 'K Q S W' }), pcm);
  assert.notEqual(wrong.words[2].readStatus, 'correct');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('alpha on a real learner recording of words is not read as letters', async () => {
  const { engine } = await englishEngine();
  const a = await engine.assess(config({ coreType: 'alpha', referenceText: 'X Y Z' }), await audio(...SO762.file));
  assert.ok(a.units.filter((u) => u.readStatus === 'correct').length <= 1);
  assert.ok(a.overall < 60, `overall ${a.overall}`);
});

test('unknown words are scored through letter-to-sound, never dropped', async () => {
  const { engine } = await englishEngine();
  // "Dashwoodish" is not in CMUdict: its letter-to-sound pronunciation still gets a slot and a score.
  const text = LIBRIVOX1.text.replace('Dashwood', 'Dashwoodish');
  const en = await engine.inspect(config({ referenceText: text }), await audio(...LIBRIVOX1.file));
  const w = en.words.find((x) => x.text === 'Dashwoodish')!;
  assert.ok(w.oov);
  assert.ok(w.phones.length >= 7, w.pronunciation);
  assert.equal(en.words.length, 22);
});

test('silence: no exception, 1001 warning, zero scores', async () => {
  const { engine } = await englishEngine();
  const pcm = { pcm: new Int16Array(32000), sampleRate: 16000 as const, durationSec: 2, source: { format: 'wav', sampleRate: 16000, channels: 1 }, lowSampleRate: false };
  const a = await engine.assess(config({ referenceText: 'Hello world.' }), pcm);
  assert.ok(a.warnings.some((w) => w.code === 1001));
  assert.equal(a.overall, 0);
});
