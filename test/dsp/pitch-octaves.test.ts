/**
 * Octave-error repair (src/dsp/pitch.ts `repairOctaves`) on a real reading: AISHELL speaker
 * S0764 (fireredasr's read example) reads 甚至出现交易几乎停滞的情况 at about 235 Hz, and the
 * tracker jumps an octave up for a few strongly voiced frames inside 至. Left there, they made
 * the tone model hear 至 rising and flag three correctly read tones of the sentence.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../../src/audio/decode.js';
import { trackPitch } from '../../src/dsp/pitch.js';
import { SHARED_DATA_DIR } from '../helpers/app.js';

test('no run of a few voiced frames stays an octave off the level around it, however strongly voiced', async () => {
  const a = await decodeAudio(fs.readFileSync(path.join(SHARED_DATA_DIR, 'zh', 'fireredasr', 'BAC009S0764W0121.wav')));
  const { f0 } = trackPitch(a.pcm, a.sampleRate);
  // 至 lies at frames 75-99 of the engine's alignment; its level is about 235 Hz.
  const zhi = Array.from(f0.subarray(75, 100)).filter((hz) => hz > 0);
  assert.ok(zhi.length >= 15, `${zhi.length} voiced frames in 至`);
  for (const hz of zhi) assert.ok(hz > 200 && hz < 280, `${Math.round(hz)} Hz in 至: ${zhi.map(Math.round).join(' ')}`);
  // Over the whole reading, no voiced frame sits 10 semitones or more from both voiced neighbours.
  for (let i = 1; i + 1 < f0.length; i++) {
    if (!(f0[i] > 0 && f0[i - 1] > 0 && f0[i + 1] > 0)) continue;
    const off = (j: number) => Math.abs(12 * Math.log2(f0[i] / f0[j])) >= 10;
    assert.ok(!(off(i - 1) && off(i + 1)), `frame ${i}: ${Math.round(f0[i - 1])} ${Math.round(f0[i])} ${Math.round(f0[i + 1])} Hz`);
  }
});
