import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { closestBaseVoice, buildVoiceProfile } from '../../src/synthesis/profile.js';
import { renderSpeech } from '../../src/synthesis/synthesize.js';
import { createSynthesisService } from '../../src/synthesis/service.js';
import { SHARED_DATA_DIR, testConfig } from '../helpers/app.js';
import { decodeWithFfmpeg, request, testEngines } from './helpers.js';

function transcript(dir: string, id: string): string {
  const tsv = fs.readFileSync(path.join(SHARED_DATA_DIR, dir, 'transcripts.tsv'), 'utf8');
  return tsv.split('\n').find((l) => l.startsWith(id))!.split('\t')[1];
}

function ljText(id: string): string {
  const csv = fs.readFileSync(path.join(SHARED_DATA_DIR, 'en/ljspeech/metadata.csv'), 'utf8');
  return csv.split('\n').find((l) => l.startsWith(id))!.split('|')[2];
}

const CASES = [
  { language: 'zh-CN' as const, file: path.join(SHARED_DATA_DIR, 'zh/aishell-s0150/BAC009S0150W0100.flac'), text: transcript('zh/aishell-s0150', 'BAC009S0150W0100') },
  // The closest system voice starts 10% low on this one; the measuring loop corrects it.
  { language: 'zh-CN' as const, file: path.join(SHARED_DATA_DIR, 'zh/aishell-s0150/BAC009S0150W0300.flac'), text: transcript('zh/aishell-s0150', 'BAC009S0150W0300') },
  // 253 Hz: above eSpeak's own top pitch even after the formant shift.
  { language: 'en-US' as const, file: path.join(SHARED_DATA_DIR, 'en/ljspeech/wavs/LJ001-0004.flac'), text: ljText('LJ001-0004') },
  {
    language: 'en-US' as const,
    file: path.join(SHARED_DATA_DIR, 'en/ljspeech/wavs/LJ001-0001.flac'),
    text: 'Printing, in the only sense with which we are at present concerned, differs from most if not from all the arts and crafts represented in the Exhibition',
  },
];

for (const c of CASES) {
  test(`${c.language} ${path.basename(c.file)}: a profile voice lands within 10% of the speaker's median F0 and rate`, async () => {
    const ref = await decodeWithFfmpeg(c.file, 16000);
    const profile = buildVoiceProfile(ref, 16000, c.text, c.language);
    const base = closestBaseVoice(profile);
    const out = await renderSpeech(request({ text: c.text, language: c.language, voice: base.id, profile }), await testEngines());
    const got = buildVoiceProfile(out.pcm, out.sampleRate, c.text, c.language);
    const info = JSON.stringify({ base: base.id, ref: profile, got });
    assert.ok(Math.abs(got.medianF0 / profile.medianF0 - 1) < 0.1, info);
    assert.ok(Math.abs(got.rate / profile.rate - 1) < 0.1, info);
  });
}

test('the service synthesises in worker threads and keeps 40001 across the boundary', async () => {
  const tts = createSynthesisService(testConfig(), { threads: 1 });
  try {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 5);
    const r = await tts.synthesize(request({ text: '床前明月光，疑是地上霜。', format: 'mp3' }));
    clearInterval(timer);
    assert.equal(r.format, 'mp3');
    assert.ok(r.durationSec > 2, `${r.durationSec}`);
    assert.ok(ticks > 5, 'the event loop kept running during synthesis');
    await assert.rejects(tts.synthesize(request({ text: '你好', pinyin: 'ni3' })), (e: { code?: number }) => e.code === 40001);
  } finally {
    await tts.close();
  }
});
