/**
 * The same upload gives the same assessment, whatever was scored before it: decoding and every
 * decode are pure functions of their input. The recordings are 22.05 kHz LJ Speech FLAC, which
 * the decoder resamples (where sox's dither used to make every decode differ).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../../src/audio/decode.js';
import { closeEngine, config, EN_DATA, englishEngine, HARVARD1, LJ2 } from './setup.js';

after(closeEngine);

const LJ1 = {
  file: ['ljspeech', 'wavs', 'LJ001-0001.flac'],
  text: 'Printing, in the only sense with which we are at present concerned, differs from most if not from all the arts and crafts represented in the Exhibition',
};

test('a reading scored twice, with other readings and an altered text in between, gives the same assessment', async () => {
  const { engine } = await englishEngine();
  const score = async (r: { file: string[]; text: string }) =>
    JSON.stringify(await engine.inspect(config({ referenceText: r.text }), await decodeAudio(fs.readFileSync(path.join(EN_DATA, ...r.file)))));
  const first = await score(LJ1);
  await score(LJ2);
  await score({ ...HARVARD1, text: 'The birch canoe slid on the purple smooth planks.' });
  await score({ ...LJ1, text: `window ${LJ1.text}` });
  assert.equal(await score(LJ1), first);
});
