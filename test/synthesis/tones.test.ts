import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderSpeech } from '../../src/synthesis/synthesize.js';
import { toZhTokens } from '../../src/synthesis/zh/syllables.js';
import { request, slopeSt, testEngines, voicedSegments } from './helpers.js';

// Four syllables separated by commas, so each is its own voiced stretch in the output.
const MA = request({ text: '妈，麻，马，骂。', pinyin: 'ma1 ma2 ma3 ma4', speed: 30 });

for (const engine of ['ekho', 'espeak'] as const) {
  test(`${engine}: ma1 ma2 ma3 ma4 come out flat, rising, low, falling`, async () => {
    const r = await renderSpeech(MA, await testEngines(), { engine });
    const segs = voicedSegments(r.pcm, r.sampleRate);
    assert.equal(segs.length, 4, `expected 4 voiced stretches, got ${segs.length}`);
    const [t1, t2, t3, t4] = segs.map(slopeSt);
    const level = segs.map((s) => [...s].sort((a, b) => a - b)[s.length >> 1]);
    const msg = `slopes (st) ${[t1, t2, t3, t4].map((x) => x.toFixed(1))}, medians (Hz) ${level.map((x) => x.toFixed(0))}`;
    // Tolerances in semitones: a level tone moves less than 2.5 st; a contour tone at least 1.
    assert.ok(Math.abs(t1) < 2.5, `tone 1 not level: ${msg}`);
    assert.ok(t2 > 1, `tone 2 not rising: ${msg}`);
    assert.ok(t4 < -3, `tone 4 not falling: ${msg}`);
    assert.ok(t2 - t4 > 4, msg);
    assert.deepEqual(r.warnings, []);
    // Tone 3 is the low tone: its lowest F0 is below the lowest F0 of tones 1 and 4.
    const low = segs.map((s) => Math.min(...s));
    assert.ok(low[2] < low[0] && low[2] < low[3], `tone 3 not low: ${msg}, minima ${low.map((x) => x.toFixed(0))}`);
  });
}

test('sandhi: 你好 reads ni2 hao3, 一个 yi2, 不对 bu2, 第一 stays yi1', () => {
  const tones = (text: string) => toZhTokens(text).tokens.flatMap((t) => (t.kind === 'syllable' ? [`${t.base}${t.tone}`] : []));
  assert.deepEqual(tones('你好'), ['ni2', 'hao3']);
  assert.deepEqual(tones('一个不对'), ['yi2', 'ge4', 'bu2', 'dui4']);
  assert.deepEqual(tones('一天'), ['yi4', 'tian1']);
  assert.deepEqual(tones('第一名'), ['di4', 'yi1', 'ming2']);
  assert.deepEqual(tones('很好，好'), ['hen2', 'hao3', 'hao3']); // the comma blocks sandhi
  assert.deepEqual(tones('银行长大'), ['yin2', 'hang2', 'zhang3', 'da4']);
});

test('a pinyin override changes the chosen clips and the audio', async () => {
  const e = await testEngines();
  const plain = await renderSpeech(request({ text: '长大' }), e);
  const forced = await renderSpeech(request({ text: '长大', pinyin: 'chang2 da4' }), e);
  const keys = (p?: string) => toZhTokens('长大', p).tokens.map((t) => (t.kind === 'syllable' ? `${t.base}${t.tone}` : ''));
  assert.deepEqual(keys(), ['zhang3', 'da4']);
  assert.deepEqual(keys('chang2 da4'), ['chang2', 'da4']);
  const n = Math.min(plain.pcm.length, forced.pcm.length);
  let diff = 0;
  for (let i = 0; i < n; i++) diff += Math.abs(plain.pcm[i] - forced.pcm[i]);
  assert.ok(diff / n > 500, `outputs barely differ (mean |Δ| ${(diff / n).toFixed(0)})`);
});

test('without the recorded voice Mandarin falls back to eSpeak NG with a warning', async () => {
  const e = await testEngines();
  const r = await renderSpeech(request({ text: '你好。' }), { espeak: e.espeak, ekho: null });
  assert.equal(r.sampleRate, 22050); // eSpeak's rate, not Ekho's 16 kHz
  assert.match(r.warnings.join(), /not installed/);
  assert.ok(r.pcm.length / r.sampleRate > 0.3);
});
