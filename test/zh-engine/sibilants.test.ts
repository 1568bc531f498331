/**
 * Flat against retroflex sibilants (src/zh/engine/sibilants.ts) on a real native reading:
 * AISHELL S0150 W0163 这正是三点三零新政后, where 是 starts with sh and 三 with s.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio, type DecodedAudio } from '../../src/audio/decode.js';
import { floatToInt16, resample } from '../../src/audio/resample.js';
import type { AcousticBackend } from '../../src/acoustic/types.js';
import { createInThreadBackend } from '../../src/acoustic/backend.js';
import { parseEvaluationConfig } from '../../src/evaluation/config.js';
import { createMandarinEngine, type MandarinEngine } from '../../src/zh/engine/engine.js';
import { SIBILANT_TILT, sibilantTilt } from '../../src/zh/engine/sibilants.js';
import { REPO_ROOT, SHARED_DATA_DIR, testConfig } from '../helpers/app.js';

const ID = 'BAC009S0150W0163';
const TEXT = '这正是三点三零新政后';
const PINYIN = ['zhe4', 'zheng4', 'shi4', 'san1', 'dian3', 'san1', 'ling2', 'xin1', 'zheng4', 'hou4'];
/** The reference with 三 (san1, the fourth character) given as shan1: the reader's s is then a flat sibilant where a retroflex one is expected. */
const AS_SHAN = PINYIN.map((p, i) => (i === 3 ? 'shan1' : p)).join(' ');

let backend: AcousticBackend;
let engine: MandarinEngine;
let audio: DecodedAudio;

before(async () => {
  backend = createInThreadBackend(testConfig(), { langs: ['zh'] });
  engine = await createMandarinEngine({ backend, modelsDir: path.join(REPO_ROOT, 'models') });
  audio = await decodeAudio(fs.readFileSync(path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150', `${ID}.flac`)));
});
after(() => backend.close());

const assess = (a: DecodedAudio, refPinyin?: string) =>
  engine.assess(parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: TEXT, ...(refPinyin ? { refPinyin } : {}) }), a);

/** The same recording through a telephone band: 8 kHz and back to 16 kHz. */
function narrowband(a: DecodedAudio): DecodedAudio {
  const f = Float32Array.from(a.pcm, (v) => v / 32768);
  return { ...a, pcm: floatToInt16(resample(resample(f, 16000, 8000), 8000, 16000)) };
}

test('an s carries its noise above 6 kHz, an sh below 4 kHz: the tilts of the aligned initials lie beyond both thresholds', async () => {
  const a = await assess(audio);
  const initial = (k: number) => a.units[k].phones[0].span;
  const sh = initial(2);
  const s = initial(3);
  const [shTilt, sTilt] = [sibilantTilt(audio.pcm, sh.start, sh.end), sibilantTilt(audio.pcm, s.start, s.end)];
  assert.ok(shTilt !== null && shTilt < SIBILANT_TILT.flatBelow, `sh tilt ${shTilt}`);
  assert.ok(sTilt !== null && sTilt > SIBILANT_TILT.retroflexAbove, `s tilt ${sTilt}`);
  assert.ok(a.units.every((u) => u.readStatus === 'correct'), 'the correct reading keeps every character correct');
});

test('an s read where sh is expected is mispronounced and heard as san on wideband speech; the 8 kHz acoustic model alone lets it pass', async () => {
  const assessed = await assess(audio, AS_SHAN);
  const wide = assessed.units[3];
  assert.equal(wide.readStatus, 'mispronounced');
  assert.equal(wide.heard?.syllable, 'san');
  // The accuracy suggestion names the confusion and the character.
  assert.match(assessed.suggestions.accuracy, /平舌音.*翘舌音.*三/);
  // Through a telephone band the check is off (no speech above 4 kHz to judge), and the
  // competition of the acoustic model, which hears nothing above 4 kHz, finds nothing wrong.
  const narrow = (await assess(narrowband(audio), AS_SHAN)).units[3];
  assert.equal(narrow.readStatus, 'correct');
});
