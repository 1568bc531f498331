/** ASR over HTTP with real recordings: text, per-character times, metering, errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { beijingDay } from '../../src/storage/day.js';
import path from 'node:path';
import { SHARED_DATA_DIR, buildTestApp } from '../helpers/app.js';
import { createAccount, multipart } from '../helpers/gateway.js';
import { aishellFile, aishellTranscripts, librivox } from '../acoustic/speech.js';

test('POST /api/v1/asr/recognize: Mandarin per-character words, English confidence, audio seconds metered', async (t) => {
  const { app } = await buildTestApp();
  t.after(() => app.close());
  const account = await createAccount(app);
  const send = (audio: Buffer, language?: string) => {
    const form = multipart([{ name: 'audio', value: audio, filename: 'a.flac' }, ...(language ? [{ name: 'language', value: language }] : [])]);
    return app.inject({ method: 'POST', url: '/api/v1/asr/recognize', payload: form.payload, headers: { ...form.headers, 'x-app-key': account.appKey } });
  };
  const sentence = aishellTranscripts()[3];
  const zh = await send(fs.readFileSync(aishellFile(sentence.id)));
  assert.equal(zh.statusCode, 200, zh.body);
  const data = zh.json().data;
  assert.equal(data.language, 'zh');
  assert.equal(data.confidence, null);
  const chars = [...data.text.replace(/\s+/g, '')];
  assert.equal(data.words.length, chars.length);
  for (const w of data.words) assert.ok([...w.word].length === 1 && w.end_ms > w.start_ms);
  const shared = chars.filter((c) => sentence.text.includes(c)).length;
  assert.ok(shared >= chars.length / 2, `recognised "${data.text}" for "${sentence.text}"`);

  const en = await send(fs.readFileSync(librivox(1).file), 'en');
  assert.equal(en.statusCode, 200, en.body);
  assert.ok(en.json().data.confidence > 0 && en.json().data.confidence <= 1);

  assert.match((await send(fs.readFileSync(aishellFile(sentence.id)), 'fr')).json().message, /language/);
  const narrow = await send(fs.readFileSync(path.join(SHARED_DATA_DIR, 'en', 'fsdd-digits', 'recordings', '0_george_0.flac')), 'en');
  assert.equal(narrow.statusCode, 400);
  assert.match(narrow.json().message, /at least 16 kHz/);
  const day = beijingDay();
  const rows = await app.storage.usage.query(account.tenantId, { from: day, to: day, meter: 'asr.stream' });
  assert.ok(Math.abs(rows[0].quantity - data.duration - en.json().data.duration) < 0.01);
});
