import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applySlack, bandScore, GRADE_BAND_WEIGHTS, judgesDelivery, shapeScore, weightedOverall, weightsFor } from '../../src/assessment/shaping.js';

test('every grade band weights the five dimensions to a sum of 1 (tolerance 1e-9), accuracy largest', () => {
  for (const band of [1, 2, 3, 4] as const) {
    const w = GRADE_BAND_WEIGHTS[band];
    const sum = w.integrity + w.accuracy + w.fluency + w.readingSkill + w.emotion;
    assert.ok(Math.abs(sum - 1) < 1e-9, `band ${band} sums to ${sum}`);
    assert.ok(w.accuracy >= Math.max(w.integrity, w.fluency, w.readingSkill, w.emotion));
  }
  assert.ok(GRADE_BAND_WEIGHTS[1].integrity > GRADE_BAND_WEIGHTS[4].integrity, 'young readers: coverage counts more');
  assert.ok(GRADE_BAND_WEIGHTS[4].readingSkill > GRADE_BAND_WEIGHTS[1].readingSkill, 'advanced readers: skill counts more');
});

test('a single word or letter is weighted on integrity and accuracy alone, in the band\'s proportion; other kinds by the band', () => {
  for (const band of [1, 2, 3, 4] as const) {
    const b = GRADE_BAND_WEIGHTS[band];
    for (const kind of ['word', 'alpha']) {
      const w = weightsFor(kind, band);
      assert.deepEqual([w.fluency, w.readingSkill, w.emotion], [0, 0, 0]);
      assert.ok(Math.abs(w.integrity + w.accuracy - 1) < 1e-9);
      assert.ok(Math.abs(w.accuracy / w.integrity - b.accuracy / b.integrity) < 1e-9);
      assert.equal(judgesDelivery(kind), false);
    }
    for (const kind of ['sentence', 'passage', 'pinyin', 'connected']) assert.deepEqual(weightsFor(kind, band), b);
  }
  // A word read in full and right scores full marks whatever its delivery scores.
  assert.equal(weightedOverall({ integrity: 100, accuracy: 100, fluency: 20, readingSkill: 30, emotion: 10 }, weightsFor('word', 4)), 100);
});

test('weighted overall of equal dimensions is that value (tolerance 1e-9)', () => {
  const d = { integrity: 80, accuracy: 80, fluency: 80, readingSkill: 80, emotion: 80 };
  assert.ok(Math.abs(weightedOverall(d, GRADE_BAND_WEIGHTS[3]) - 80) < 1e-9);
});

test('slack 0 is the identity, positive slack is more lenient, negative stricter, ends fixed', () => {
  assert.equal(applySlack(63, 0), 63);
  assert.ok(applySlack(60, 1) > 70 && applySlack(60, 1) < 80, `${applySlack(60, 1)}`);
  assert.ok(applySlack(60, -1) < 50 && applySlack(60, -1) > 35, `${applySlack(60, -1)}`);
  assert.equal(applySlack(0, 1), 0);
  assert.equal(applySlack(100, -1), 100);
  for (let s = 0; s < 100; s += 7) assert.ok(applySlack(s + 1, 0.5) > applySlack(s, 0.5), 'monotone');
});

test('scale and precision: scale 10 with step 0.1 keeps one decimal, step 1 gives integers', () => {
  assert.equal(shapeScore(87.46, 10, 0.1), 8.7);
  assert.equal(shapeScore(87.46, 100, 1), 87);
  assert.equal(shapeScore(87.46, 100, 0.5), 87.5);
  assert.equal(shapeScore(120, 10, 0.1), 10);
  assert.equal(shapeScore(-3, 100, 1), 0);
});

test('band score: full inside the band, linear fall outside', () => {
  assert.equal(bandScore(200, 150, 300), 100);
  assert.ok(Math.abs(bandScore(105, 150, 300, 0.6) - 50) < 1e-9);
  assert.equal(bandScore(10, 150, 300, 0.6), 0);
});
