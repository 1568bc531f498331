/**
 * The same upload gives the same assessment, whatever was scored before it: decoding and every
 * decode are pure functions of their input. The recordings are 22.05 kHz LJ Speech FLAC, which
 * the decoder resamples (where sox's dither used to make every decode differ).
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { audio, closeEngine, config, englishEngine, HARVARD1, LJ1, LJ2 } from './setup.js';

after(closeEngine);

test('a reading scored twice, with other readings and an altered text in between, gives the same assessment', async () => {
  const { engine } = await englishEngine();
  const score = async (r: { file: string[]; text: string }) => JSON.stringify(await engine.inspect(config({ referenceText: r.text }), await audio(...r.file)));
  const first = await score(LJ1);
  await score(LJ2);
  await score({ ...HARVARD1, text: 'The birch canoe slid on the purple smooth planks.' });
  await score({ ...LJ1, text: `window ${LJ1.text}` });
  assert.equal(await score(LJ1), first);
});
