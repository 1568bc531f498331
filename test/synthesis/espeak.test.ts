import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadEspeak, wordSpans } from '../../src/synthesis/espeak/engine.js';
import { renderSpeech } from '../../src/synthesis/synthesize.js';
import { medianF0, request, testEngines } from './helpers.js';

test('word spans: a word ends at the next pause marker or the next word', () => {
  const spans = wordSpans(
    [
      { type: 'word', audio_position: 0 },
      { type: 'phoneme', audio_position: 220, id: '' },
      { type: 'word', audio_position: 370 },
      { type: 'word', audio_position: 566 },
    ],
    0.9,
  );
  assert.deepEqual(spans, [
    { start: 0, end: 0.22 },
    { start: 0.37, end: 0.566 },
    { start: 0.566, end: 0.9 },
  ]);
});

test('the WebAssembly build reports one word span per pinyin syllable', async () => {
  const { espeak } = await testEngines();
  const out = await espeak.synth('ni3 hao3, shi4 jie4.', { voice: 'cmn-latn-pinyin', rateWpm: 145, pitch: 50 });
  assert.equal(out.words?.length, 4);
  assert.ok(out.words!.every((w, i) => w.end > w.start && (i === 0 || w.start >= out.words![i - 1].start)));
});

test('the Debian binary renders English and Mandarin; Mandarin then warns that tones are eSpeak\'s own', async () => {
  const cli = await loadEspeak('cli');
  assert.equal(cli.kind, 'cli');
  const en = await renderSpeech(request({ text: 'Good morning, everyone.', language: 'en-GB', voice: 'male' }), { espeak: cli, ekho: null });
  assert.equal(en.sampleRate, 22050);
  assert.ok(en.pcm.length / en.sampleRate > 0.8);
  // male on eSpeak: 120 Hz target, no formant shift; 15% tolerance for the calibration table.
  assert.ok(Math.abs(medianF0(en.pcm, en.sampleRate) / 120 - 1) < 0.15);
  const zh = await renderSpeech(request({ text: '你好。', voice: 'xiaofeng' }), { espeak: cli, ekho: null });
  assert.match(zh.warnings.join(), /eSpeak's own intonation/);
});
