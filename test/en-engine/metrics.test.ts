import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rhythmMetrics } from '../../src/en/connected/rhythm.js';
import { fitLogistic, fitRidge, pearson, predict, spearman } from '../../src/en/scoring-model/linear.js';
import { loadEnglishScoringModel } from '../../src/en/scoring-model/model.js';
import { PHONE_FEATURES, UTTERANCE_FEATURES, WORD_FEATURES, phoneFeatures } from '../../src/en/scoring-model/features.js';
import { gopAcceptability, shortWordLeniency, WORD_GOP_THRESHOLD } from '../../src/en/engine/dimensions.js';
import type { ReadingEvidence, WordEvidence } from '../../src/en/engine/evidence.js';
import { bySentence, phonesInReading, sentencePieces, type WordScores } from '../../src/en/engine/score.js';

const seg = (phone: string, startFrame: number, endFrame: number) => ({ phone, startFrame, endFrame });

test('nPVI_V and %V on hand-computed intervals (tolerance 0.01)', () => {
  // Vowels of 10 and 20 frames with a 5-frame consonant between: nPVI = 100·|10−20|/15 = 66.67; %V = 30/35 = 85.71.
  const m = rhythmMetrics([seg('AA', 0, 10), seg('T', 10, 15), seg('IY', 15, 35)]);
  assert.ok(Math.abs(m.nPVI_V - 66.667) < 0.01, String(m.nPVI_V));
  assert.ok(Math.abs(m.pctV - 85.714) < 0.01, String(m.pctV));
  // Equal vowels: no variability. Adjacent vowels merge into one vocalic interval.
  assert.equal(rhythmMetrics([seg('AA', 0, 10), seg('T', 10, 15), seg('IY', 15, 25)]).nPVI_V, 0);
  assert.equal(rhythmMetrics([seg('AA', 0, 10), seg('IY', 10, 20)]).vocalicIntervals, 1);
  // A pause of 250 ms or more separates stretches: no pair is taken across it.
  assert.equal(rhythmMetrics([seg('AA', 0, 10), seg('IY', 40, 60)]).nPVI_V, 0);
});

test('ridge regression recovers a linear law (tolerance 0.05) and logistic regression its direction', () => {
  const X: number[][] = [];
  const y: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < 400; i++) {
    const a = Math.sin(i) * 3;
    const c = Math.cos(i * 1.7) * 2;
    X.push([a, c]);
    y.push(2 * a - 0.5 * c + 1);
    b.push(a - c > 0 ? 1 : 0);
  }
  const m = fitRidge(['a', 'c'], X, y, [-100, 100], 0);
  assert.ok(Math.abs(predict(m, [1, 1]) - 2.5) < 0.05, String(predict(m, [1, 1])));
  assert.ok(Math.abs(predict(m, [-2, 0]) - -3) < 0.05);
  const l = fitLogistic(['a', 'c'], X, b);
  assert.ok(predict(l, [2, -1]) > 0.9 && predict(l, [-2, 1]) < 0.1);
});

test('a fitted map holds each input inside the range it was fitted on', () => {
  // y = 2x on x in [0, 10]: inside the range the law, beyond it the value at the edge.
  const X = Array.from({ length: 11 }, (_, i) => [i]);
  const m = fitRidge(['x'], X, X.map(([x]) => 2 * x), [-1000, 1000], 0);
  assert.deepEqual([m.lo, m.hi], [[0], [10]]);
  assert.ok(Math.abs(predict(m, [5]) - 10) < 1e-6, String(predict(m, [5])));
  assert.ok(Math.abs(predict(m, [100]) - 20) < 1e-6, String(predict(m, [100])));
  assert.ok(Math.abs(predict(m, [-40]) - 0) < 1e-6, String(predict(m, [-40])));
  // A missing input still counts as the mean.
  assert.ok(Math.abs(predict(m, [NaN]) - 10) < 1e-6);
});

test('an input not measured in a row stands at its mean, in fitting as in scoring', () => {
  // y = 2x + z; z is missing in every fourth row. Its mean and range come from the rows that
  // have it, and a row without it scores as one with z at that mean.
  const X = Array.from({ length: 40 }, (_, i) => [i % 7, i % 4 === 0 ? NaN : (i % 5) - 2]);
  const y = X.map(([x, z]) => 2 * x + (Number.isFinite(z) ? z : 0));
  const m = fitRidge(['x', 'z'], X, y, [-1000, 1000], 0);
  const zs = X.map(([, z]) => z).filter(Number.isFinite);
  assert.ok(Math.abs(m.mean[1] - zs.reduce((a, b) => a + b, 0) / zs.length) < 1e-9, String(m.mean[1]));
  assert.deepEqual([m.lo[1], m.hi[1]], [-2, 2]);
  assert.ok(Math.abs(predict(m, [3, NaN]) - predict(m, [3, m.mean[1]])) < 1e-9);
  // The law is recovered from the measured rows (a missing z at 0 would bend it).
  assert.ok(Math.abs(predict(m, [3, 1]) - 7) < 0.3, String(predict(m, [3, 1])));
  // An input measured in no row carries no weight.
  const none = fitLogistic(['x', 'z'], X.map(([x]) => [x, NaN]), X.map(([x]) => (x > 3 ? 1 : 0)));
  assert.equal(none.weights[1], 0);
});

test('Pearson and Spearman on known series (tolerance 1e-9)', () => {
  assert.ok(Math.abs(pearson([1, 2, 3, 4], [2, 4, 6, 8]) - 1) < 1e-9);
  assert.ok(Math.abs(pearson([1, 2, 3], [3, 2, 1]) + 1) < 1e-9);
  // Monotone but not linear: Spearman 1, Pearson below 1.
  assert.ok(Math.abs(spearman([1, 2, 3, 4], [1, 8, 27, 64]) - 1) < 1e-9);
  assert.ok(pearson([1, 2, 3, 4], [1, 8, 27, 64]) < 0.99);
});

test('the shipped model matches the feature lists and was fitted on the train half', () => {
  const m = loadEnglishScoringModel();
  assert.equal(m.trainedOn.split, 'train');
  assert.deepEqual(m.phone.names, [...PHONE_FEATURES]);
  assert.deepEqual(m.word.total.names, [...WORD_FEATURES]);
  assert.deepEqual(m.utterance.total.names, [...UTTERANCE_FEATURES]);
  assert.equal(m.phone.link, 'logistic');
  assert.ok(Object.keys(m.phoneStats).length >= 35, 'statistics for nearly every phone of the model');
  // The reader's part of the phone scores: a few hundredths per fluency point, around a fluency
  // inside the experts' 0-10 scale.
  assert.ok(m.phoneReader.weight > 0 && m.phoneReader.weight < 0.1, String(m.phoneReader.weight));
  assert.ok(m.phoneReader.centre > 0 && m.phoneReader.centre < 10, String(m.phoneReader.centre));
});

test("the reader's part of the phone scores: the sentence's fluency against the centre, held inside 0-1", () => {
  const word = (phones: number[]) => ({ phones, accuracy: 8, stress: 10, total: 8 }) as unknown as WordScores;
  const words = [word([0.5, 0.99]), word([0.02, 0.7])];
  const out = phonesInReading(words, { weight: 0.02, centre: 8 }, (i) => (i === 0 ? 10 : 3));
  // First word: fluency 10, two points over the centre, +0.04; the second: five points under, −0.1.
  assert.deepEqual(out[0].phones.map((p) => +p.toFixed(6)), [0.54, 1]);
  assert.deepEqual(out[1].phones.map((p) => +p.toFixed(6)), [0, 0.6]);
  // The word scores and the input are left as they were.
  assert.equal(out[0].accuracy, 8);
  assert.deepEqual(words[0].phones, [0.5, 0.99]);
});

test('phone features: what the loop heard over the span, hand-computed shares (tolerance 1e-9)', () => {
  // A final T over frames 10-20; the loop heard T for 4 frames, D (same class) for 2, silence for 2, AH for 2.
  const t = { phone: 'T', stress: null, startFrame: 10, endFrame: 20, gop: -2, forced: -8 };
  const loop = [seg('AH', 0, 12), seg('T', 12, 16), seg('D', 16, 18), seg('SIL', 18, 30)].map((s) => ({ ...s, score: 0 }));
  const ctx = { wordZ: 0, uttZ: 0, uttDurZ: 0, prev: undefined, next: undefined, index: 2, count: 3, lastWord: false, loop };
  const x = phoneFeatures(t, { T: [-2, 1, 2, 0.5, 0.8] }, ctx);
  const f = (name: string) => x[PHONE_FEATURES.indexOf(name as (typeof PHONE_FEATURES)[number])];
  assert.equal(x.length, PHONE_FEATURES.length);
  assert.ok(Math.abs(f('loopSame') - 0.4) < 1e-9, String(f('loopSame')));
  assert.ok(Math.abs(f('loopClass') - 0.6) < 1e-9);
  assert.ok(Math.abs(f('loopSilence') - 0.2) < 1e-9);
  assert.ok(Math.abs(f('loopVowelInConsonant') - 0.2) < 1e-9);
  assert.equal(f('finalConsonant'), 1);
  assert.equal(f('phonePrior'), 0.8);
  assert.equal(f('gopZ'), 0);
  // A skipped phone: nothing heard, all silence.
  const gone = phoneFeatures({ ...t, startFrame: -1, endFrame: -1, gop: -12 }, {}, ctx);
  assert.equal(gone[PHONE_FEATURES.indexOf('loopSame')], 0);
  assert.equal(gone[PHONE_FEATURES.indexOf('loopSilence')], 1);
});

test('a passage in sentences: each its own span and half of each break around it; a skipped one left out of fluency', () => {
  const word = (sentenceIndex: number, startFrame: number, endFrame: number, status: 'read' | 'omitted' = 'read') =>
    ({ status, startFrame, endFrame, entry: { word: { sentenceIndex } }, phones: [] }) as unknown as WordEvidence;
  const words = [word(0, 50, 100), word(0, 100, 200), word(1, -1, -1, 'omitted'), word(2, 300, 400)];
  const ev: ReadingEvidence = { ok: true, failure: null, frames: 1000, words, speechStart: 50, speechEnd: 400 };
  const pieces = sentencePieces(ev);
  assert.deepEqual(pieces.map((p) => [p.from, p.evidence.words.length, p.read]), [[0, 2, true], [2, 1, false], [3, 1, true]]);
  assert.deepEqual([pieces[0].evidence.speechStart, pieces[0].evidence.speechEnd], [50, 200]);
  // The recording's 50 frames before the first sentence, half of the 100-frame break across the
  // skipped sentence on either side, the recording's 600 frames after the last.
  assert.deepEqual(pieces[0].around, { before: 50, after: 50 });
  assert.deepEqual(pieces[2].around, { before: 50, after: 600 });
  // A reading of one sentence is itself.
  const one = sentencePieces({ ...ev, words: words.slice(0, 2), speechEnd: 200 });
  assert.equal(one.length, 1);
  assert.deepEqual(one[0].around, { before: 50, after: 800 });
  const all = (v: number) => ({ accuracy: v, completeness: v, fluency: v, prosodic: v, total: v });
  const u = bySentence([{ words: 2, read: true, scores: all(9) }, { words: 1, read: false, scores: all(5) }, { words: 1, read: true, scores: all(6) }]);
  // Weighted by words: fluency over the read sentences, (2·9 + 6) / 3; the total over all, (2·9 + 0 + 6) / 4.
  assert.equal(u.fluency, 8);
  assert.equal(u.total, 6);
});

test('GOP acceptability: 50 at the threshold, monotone, slack moves it', () => {
  assert.ok(Math.abs(gopAcceptability(WORD_GOP_THRESHOLD, WORD_GOP_THRESHOLD) - 50) < 1e-9);
  assert.ok(gopAcceptability(-1, WORD_GOP_THRESHOLD) > 95);
  assert.ok(gopAcceptability(-7, WORD_GOP_THRESHOLD) < 1);
  assert.ok(gopAcceptability(-4.5, WORD_GOP_THRESHOLD, 1) > gopAcceptability(-4.5, WORD_GOP_THRESHOLD, 0));
});

test('short words are judged below the GOP threshold by the excess of their standard error, long words by it', () => {
  assert.equal(shortWordLeniency(30), 0);
  assert.equal(shortWordLeniency(80), 0);
  // 5.6 × (1/√7 − 1/√30) for a 7-frame "the".
  assert.ok(Math.abs(shortWordLeniency(7) - 5.6 * (1 / Math.sqrt(7) - 1 / Math.sqrt(30))) < 1e-9);
  assert.ok(shortWordLeniency(4) > shortWordLeniency(10) && shortWordLeniency(10) > shortWordLeniency(20));
  assert.equal(shortWordLeniency(1), 1.5);
});

test('narrowband detection: telephone-band speech has no energy above 4.5 kHz, wideband speech has (real recordings)', async () => {
  const { decodeAudio } = await import('../../src/audio/decode.js');
  const { frameEnergyDb, highBandShare, NARROWBAND_SHARE } = await import('../../src/audio/bandwidth.js');
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { SHARED_DATA_DIR } = await import('../helpers/app.js');
  const share = async (...rel: string[]) => {
    const a = await decodeAudio(fs.readFileSync(path.join(SHARED_DATA_DIR, 'en', ...rel)));
    return highBandShare(a.pcm, frameEnergyDb(a.pcm));
  };
  assert.ok((await share('harvard', 'resources', 'export_1.flac')) < NARROWBAND_SHARE);
  assert.ok((await share('librivox', 'sense_and_sensibility_01_austen_64kb-0870.flac')) > NARROWBAND_SHARE * 5);
  assert.ok((await share('speechocean762', 'train', '000010011.opus')) > NARROWBAND_SHARE * 5);
});
