import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loopFrames, phoneFeatureRows, PHONE_FEATURES, type PhoneStats } from '../../src/en/scoring-model/features.js';
import type { PhoneEvidence, ReadingEvidence, WordEvidence } from '../../src/en/engine/evidence.js';

const phone = (p: string, startFrame: number, endFrame: number, gop: number): PhoneEvidence => ({
  phone: p, stress: p === 'AE' ? 1 : null, startFrame, endFrame, gop, forced: -8,
});

/** "cat" read over frames 10-40: K, AE (the loop heard EH over half of it), T. */
function reading(): ReadingEvidence {
  const word = {
    index: 0, status: 'read', startFrame: 10, endFrame: 40, pauseAfter: 0,
    phones: [phone('K', 10, 18, -1), phone('AE', 18, 30, -4), phone('T', 30, 40, -0.5)],
  } as unknown as WordEvidence;
  return { ok: true, failure: null, frames: 50, words: [word], speechStart: 10, speechEnd: 40 };
}

const stats: PhoneStats = { K: [-1, 1, 2, 0.5], AE: [-2, 1, 2.3, 0.5], T: [-1.5, 1, 2, 0.5] };

test('loop frames: each frame names the loop phone over it, empty outside the loop', () => {
  const heard = loopFrames([{ phone: 'SIL', startFrame: 0, endFrame: 2, score: 0 }, { phone: 'AA', startFrame: 2, endFrame: 5, score: 0 }], 7);
  assert.deepEqual(heard, ['SIL', 'SIL', 'AA', 'AA', 'AA', '', '']);
});

test('phone rows: one per phone in feature order, with GOP z-score, loop shares, reading level and identity', () => {
  const loop = [
    { phone: 'K', startFrame: 10, endFrame: 18, score: 0 },
    { phone: 'AE', startFrame: 18, endFrame: 24, score: 0 },
    { phone: 'EH', startFrame: 24, endFrame: 30, score: 0 },
    { phone: 'SIL', startFrame: 30, endFrame: 35, score: 0 },
    { phone: 'T', startFrame: 35, endFrame: 40, score: 0 },
  ];
  const [rows] = phoneFeatureRows(reading(), loopFrames(loop, 50), stats);
  assert.equal(rows.length, 3);
  for (const x of rows) assert.equal(x.length, PHONE_FEATURES.length);
  const at = (x: number[], name: string) => x[PHONE_FEATURES.indexOf(name)];
  assert.equal(at(rows[1], 'gopZ'), -2);
  assert.equal(at(rows[1], 'loopSame'), 0.5);
  assert.equal(at(rows[1], 'loopOtherClass'), 0, 'EH is a vowel like AE');
  assert.equal(at(rows[2], 'loopSilence'), 0.5);
  assert.equal(at(rows[0], 'first'), 1);
  assert.equal(at(rows[2], 'last'), 1);
  assert.equal(at(rows[1], 'isAE'), 1);
  assert.equal(at(rows[1], 'isK'), 0);
  // The reading's level is the same on every phone of it: mean z-score of 0, -2 and 1.
  for (const x of rows) assert.ok(Math.abs(at(x, 'uttGopZ') - -1 / 3) < 1e-9);
});
