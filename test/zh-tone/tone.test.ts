/**
 * The tone classifier on real recordings: a speaker it was not trained on (AISHELL S0764 in
 * ../shared/data/zh/fireredasr; the model was trained on S0150 only), and the speaker
 * normalisation of its features on a real pitch track.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio, type DecodedAudio } from '../../src/audio/decode.js';
import type { AcousticBackend } from '../../src/acoustic/types.js';
import { alignReading, type AlignedSyllable } from '../../src/zh/engine/align.js';
import { createInThreadBackend } from '../../src/acoustic/backend.js';
import { syllableTable } from '../../src/zh/engine/syllables.js';
import { analyzeZhText } from '../../src/zh/engine/text.js';
import { classifyTone, classifyTones, loadToneModel } from '../../src/zh/tone/classifier.js';
import { judgedTones } from '../../src/zh/engine/sandhi.js';
import { pitchContext, readingSpan, toneEvidence } from '../../src/zh/tone/extract.js';
import { PitchAnalysis, speakerPitchStats } from '../../src/dsp/pitch.js';
import { SHARED_DATA_DIR, testConfig } from '../helpers/app.js';

const OTHER = { file: path.join(SHARED_DATA_DIR, 'zh', 'fireredasr', 'BAC009S0764W0121.wav'), text: '甚至出现交易几乎停滞的情况' };

let backend: AcousticBackend;
let audio: DecodedAudio;
let syllables: (AlignedSyllable | null)[];
const text = analyzeZhText(OTHER.text);
const expected = text.read.map((i) => text.tokens[i].sandhiTone);
const judgedMask = () => judgedTones(text.tokens, text.read);

before(async () => {
  backend = createInThreadBackend(testConfig(), { langs: ['zh'] });
  audio = await decodeAudio(fs.readFileSync(OTHER.file));
  const table = syllableTable(backend.lexicon('zh'));
  const al = await alignReading(backend, table, text.read.map((i) => text.tokens[i].syllable), audio.pcm, { gop: false, optional: false });
  assert.ok(al.ok);
  syllables = al.syllables;
});

after(async () => {
  await backend.close();
});

test('another speaker: most tones are recognised (chance is 25%)', (t) => {
  const ev = toneEvidence(pitchContext(new PitchAnalysis(audio.pcm, audio.sampleRate)), syllables, expected);
  const model = loadToneModel();
  const probs = classifyTones(model, ev.features, judgedMask());
  let judged = 0;
  let right = 0;
  ev.features.forEach((f, k) => {
    if (!f || expected[k] > 4) return;
    const p = probs[k]!;
    judged++;
    if (p.indexOf(Math.max(...p)) + 1 === expected[k]) right++;
  });
  // 12 of the 13 characters have a tone (的 is neutral). This speaker reads in a narrow range
  // (10–90% within 4 semitones); the shipped model (tone-zh-9) recognises 11 of 12 here (the
  // diagnostic line; tone-zh-8 and tone-zh-7: 9, tone-zh-6: 6). Tolerance: at least 5, against 3 by
  // chance, which is where a model whose inputs no longer match its features lands.
  t.diagnostic(`S0764 W0121: ${right} of ${judged} tones recognised`);
  assert.ok(judged >= 10, `judged ${judged}`);
  assert.ok(right >= 5, `right ${right}/${judged}`);
});

test('the second stage reads the judged neighbours: a posterior moves with theirs, not with an unjudged one', () => {
  const ev = toneEvidence(pitchContext(new PitchAnalysis(audio.pcm, audio.sampleRate)), syllables, expected);
  const model = loadToneModel();
  assert.ok(model.context, 'the shipped model has a second stage');
  const judged = judgedMask();
  const k = judged.findIndex((j, i) => j && ev.features[i] && judged[i + 1] && ev.features[i + 1]);
  assert.ok(k >= 0);
  const base = classifyTones(model, ev.features, judged)[k]!;
  // The next syllable heard otherwise: its features swapped for another syllable's.
  const other = ev.features.findIndex((f, i) => f && i !== k && i !== k + 1 && judged[i]);
  const swapped = ev.features.map((f, i) => (i === k + 1 ? ev.features[other] : f));
  const moved = classifyTones(model, swapped, judged)[k]!;
  assert.ok(Math.max(...base.map((p, c) => Math.abs(p - moved[c]))) > 1e-4, 'the posterior of the neighbour is an input');
  // The same neighbour marked unjudged (a neutral tone) is no context: uniform either way.
  const unjudged = judged.map((j, i) => (i === k + 1 ? false : j));
  const a = classifyTones(model, ev.features, unjudged)[k]!;
  const b = classifyTones(model, swapped, unjudged)[k]!;
  assert.deepEqual([...a], [...b]);
  // Without a second stage each syllable is classified alone.
  const alone = classifyTones({ ...model, context: undefined }, ev.features, judged);
  assert.deepEqual([...alone[k]!], [...classifyTone(model, ev.features[k]!)]);
});

test('features do not depend on the register: the same reading 5 semitones higher gives the same features', () => {
  const ctx = pitchContext(new PitchAnalysis(audio.pcm, audio.sampleRate))!;
  const f0 = ctx.f0.map((v) => v * 2 ** (5 / 12));
  const higher = { ...ctx, f0, medianHz: speakerPitchStats(f0, ctx.voicing, 0.3).medianHz };
  const a = toneEvidence(ctx, syllables, expected).features;
  const b = toneEvidence(higher, syllables, expected).features;
  a.forEach((f, k) => {
    assert.equal(f === null, b[k] === null);
    // Tolerance 1e-3: Float32 rounding of log-frequency differences.
    f?.forEach((v, i) => assert.ok(Math.abs(v - b[k]![i]) < 1e-3, `syllable ${k} feature ${i}: ${v} vs ${b[k]![i]}`));
  });
});

test('a reading with no voiced pitch gives no tone evidence rather than a guess', () => {
  const silent = new Int16Array(audio.pcm.length);
  assert.equal(pitchContext(new PitchAnalysis(silent, audio.sampleRate)), null);
  assert.ok(toneEvidence(null, syllables, expected).features.every((f) => f === null));
});

test('pitch tracked over the reading span only gives the same tone features as over the whole recording', () => {
  const span = readingSpan(syllables)!;
  assert.ok(span.startFrame > 0 || span.endFrame < audio.pcm.length / 160, 'the recording has silence around the reading');
  const whole = toneEvidence(pitchContext(new PitchAnalysis(audio.pcm, audio.sampleRate)), syllables, expected).features;
  const part = toneEvidence(pitchContext(new PitchAnalysis(audio.pcm, audio.sampleRate), span), syllables, expected).features;
  whole.forEach((f, k) => {
    assert.equal(f === null, part[k] === null);
    // Tolerance 0.05 (semitones, dB, log frames): the tracker's loudness gate and smoothing see
    // slightly different surroundings at the span's edges.
    f?.forEach((v, i) => assert.ok(Math.abs(v - part[k]![i]) < 0.05, `syllable ${k} feature ${i}: ${v} vs ${part[k]![i]}`));
  });
});
