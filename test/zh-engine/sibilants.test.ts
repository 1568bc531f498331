/**
 * Flat against retroflex sibilants (src/zh/engine/sibilants.ts) on real native readings:
 * AISHELL S0150 W0163 这正是三点三零新政后, where 是 starts with sh and 三 with s, and W0002
 * 设定三十度, whose 三 given as shan the acoustic model's competition lets pass.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio, type DecodedAudio } from '../../src/audio/decode.js';
import type { AcousticBackend } from '../../src/acoustic/types.js';
import { createInThreadBackend } from '../../src/acoustic/backend.js';
import { parseEvaluationConfig } from '../../src/evaluation/config.js';
import { createMandarinEngine, type MandarinEngine } from '../../src/zh/engine/engine.js';
import { SIBILANT_TILT, sibilantTilt } from '../../src/zh/engine/sibilants.js';
import { REPO_ROOT, SHARED_DATA_DIR, testConfig } from '../helpers/app.js';
import { narrowband } from '../helpers/recordings.js';

const ID = 'BAC009S0150W0163';
const TEXT = '这正是三点三零新政后';
/**
 * W0002 设定三十度 with 三 (san1, the third character) given as shan1: the reader's s is then a
 * flat sibilant where a retroflex one is expected. (W0163's 三 given as shan is caught by the
 * competition itself, so it would not show what the check adds.)
 */
const FLAT = { id: 'BAC009S0150W0002', text: '设定三十度', asShan: 'she4 ding4 shan1 shi2 du4' };

let backend: AcousticBackend;
let engine: MandarinEngine;
let audio: DecodedAudio;
let flat: DecodedAudio;

before(async () => {
  backend = createInThreadBackend(testConfig(), { langs: ['zh'] });
  engine = await createMandarinEngine({ backend, modelsDir: path.join(REPO_ROOT, 'models') });
  audio = await decodeAudio(fs.readFileSync(path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150', `${ID}.flac`)));
  flat = await decodeAudio(fs.readFileSync(path.join(SHARED_DATA_DIR, 'zh', 'aishell-s0150', `${FLAT.id}.flac`)));
});
after(() => backend.close());

const assess = (a: DecodedAudio, refPinyin?: string, text = TEXT) =>
  engine.assess(parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: text, ...(refPinyin ? { refPinyin } : {}) }), a);


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
  const assessed = await assess(flat, FLAT.asShan, FLAT.text);
  const wide = assessed.units[2];
  assert.equal(wide.readStatus, 'mispronounced');
  assert.equal(wide.heard?.syllable, 'san');
  // The accuracy suggestion names the confusion and the character.
  assert.match(assessed.suggestions.accuracy, /平舌音.*翘舌音.*三/);
  // Through a telephone band the check is off (no speech above 4 kHz to judge), and the
  // competition of the acoustic model, which hears nothing above 4 kHz, finds nothing wrong.
  const narrow = (await assess(narrowband(flat), FLAT.asShan, FLAT.text)).units[2];
  assert.equal(narrow.readStatus, 'correct');
});
