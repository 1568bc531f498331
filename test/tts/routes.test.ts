/**
 * TTS over HTTP: synthesis, audio served without credentials, metering, idempotency, and
 * tenant voices created from a real recording, isolated between tenants.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { decodeAudio } from '../../src/audio/decode.js';
import { beijingDay } from '../../src/storage/day.js';
import { buildTestApp } from '../helpers/app.js';
import { createAccount, multipart } from '../helpers/gateway.js';
import { aishellFile, aishellTranscripts } from '../acoustic/speech.js';

test('TTS generate, fetch the audio without credentials, meter characters, replay idempotently', async (t) => {
  const { app } = await buildTestApp();
  t.after(() => app.close());
  const account = await createAccount(app);
  const headers = { authorization: `Bearer ${account.token}` };
  const body = { text: '银行门口，长大的孩子。', language: 'zh-CN', format: 'wav', voice: 'sv_f_jiaoshi' };

  const res = await app.inject({ method: 'POST', url: '/api/v1/tts/generate', payload: body, headers: { ...headers, 'idempotency-key': 'tts-1' } });
  assert.equal(res.statusCode, 200, res.body);
  const data = res.json().data;
  assert.match(data.audioUrl, /^\/tts\/audio\/a_[A-Za-z0-9_-]+\.wav$/);
  assert.equal(data.format, 'wav');
  const audio = await app.inject({ method: 'GET', url: data.audioUrl });
  assert.equal(audio.statusCode, 200);
  assert.equal(audio.headers['content-type'], 'audio/wav');
  const decoded = await decodeAudio(audio.rawPayload);
  assert.ok(Math.abs(decoded.durationSec - Number(data.duration)) < 0.05, `${decoded.durationSec} vs ${data.duration}`);
  assert.ok(decoded.durationSec > 2 && decoded.durationSec < 8, `duration ${decoded.durationSec}`);

  const replay = await app.inject({ method: 'POST', url: '/api/v1/tts/generate', payload: body, headers: { ...headers, 'idempotency-key': 'tts-1' } });
  assert.equal(replay.headers['idempotency-replayed'], 'true');
  assert.equal(replay.body, res.body);

  const day = beijingDay();
  const rows = await app.storage.usage.query(account.tenantId, { from: day, to: day, meter: 'tts.standard' });
  assert.deepEqual(rows.map((r) => r.quantity), [[...body.text].length]);

  for (const [payload, message] of [
    [{ ...body, voice: 'nobody' }, /unknown voice: nobody/],
    [{ ...body, speed: 101 }, /speed/],
    [{ ...body, text: 'x'.repeat(1001) }, /1000/],
    [{ ...body, pinyin: 'yin2' }, /pinyin/],
  ] as const) {
    const bad = await app.inject({ method: 'POST', url: '/api/v1/tts/generate', payload, headers });
    assert.equal(bad.statusCode, 400);
    assert.match(bad.json().message, message);
  }
  assert.equal((await app.inject({ method: 'GET', url: '/tts/audio/a_nothinghereatallxx.wav' })).statusCode, 404);
});

test('tenant voices: created from a reference recording, listed, used, isolated, deleted', async (t) => {
  const { app } = await buildTestApp();
  t.after(() => app.close());
  const owner = await createAccount(app);
  const other = await createAccount(app);
  const bearer = (a: { token: string }) => ({ authorization: `Bearer ${a.token}` });
  const sentence = aishellTranscripts().find((s) => [...s.text].length >= 14)!;
  const form = multipart([
    { name: 'audio', value: fs.readFileSync(aishellFile(sentence.id)), filename: 'ref.flac' },
    { name: 'name', value: '王老师' },
    { name: 'language', value: 'zh' },
    { name: 'gender', value: 'female' },
    { name: 'promptText', value: sentence.text },
  ]);
  const created = await app.inject({ method: 'POST', url: '/api/v1/console/tts/voices', payload: form.payload, headers: { ...form.headers, ...bearer(owner) } });
  assert.equal(created.statusCode, 200, created.body);
  const voice = created.json().data;
  assert.equal(voice.ownerType, 'tenant');
  assert.ok(voice.profile.medianF0 > 120 && voice.profile.medianF0 < 400);

  const again = await app.inject({ method: 'POST', url: '/api/v1/console/tts/voices', payload: form.payload, headers: { ...form.headers, ...bearer(owner) } });
  assert.equal(again.statusCode, 409);
  assert.equal(again.json().code, 40900);

  const list = (await app.inject({ method: 'GET', url: '/api/v1/console/tts/voices', headers: bearer(owner) })).json().data;
  assert.ok(list.some((v: { voiceId: string }) => v.voiceId === 'sv_f_jiaoshi'));
  assert.ok(list.some((v: { voiceId: string }) => v.voiceId === voice.voiceId));
  const otherList = (await app.inject({ method: 'GET', url: '/api/v1/console/tts/voices', headers: bearer(other) })).json().data;
  assert.ok(!otherList.some((v: { voiceId: string }) => v.voiceId === voice.voiceId));

  const speak = (a: { token: string }) =>
    app.inject({ method: 'POST', url: '/api/v1/tts/generate', payload: { text: '今天天气很好。', voice: voice.voiceId, format: 'wav' }, headers: bearer(a) });
  assert.equal((await speak(owner)).statusCode, 200);
  const foreign = await speak(other);
  assert.equal(foreign.statusCode, 400);
  assert.equal(foreign.json().message, `unknown voice: ${voice.voiceId}`);

  assert.equal((await app.inject({ method: 'DELETE', url: `/api/v1/console/tts/voices/${voice.id}`, headers: bearer(other) })).statusCode, 404);
  assert.equal((await app.inject({ method: 'DELETE', url: '/api/v1/console/tts/voices/female', headers: bearer(owner) })).json().code, 40300);
  assert.equal((await app.inject({ method: 'DELETE', url: `/api/v1/console/tts/voices/${voice.id}`, headers: bearer(owner) })).statusCode, 200);
  assert.equal((await speak(owner)).statusCode, 400);
  assert.equal((await app.inject({ method: 'GET', url: '/api/v1/console/tts/voices', headers: { 'x-app-key': owner.appKey } })).json().code, 40100);
});
