/**
 * English intermediate results on the compat real-time channel (spec Events, the mobile
 * intermediate-results table): a real English reading streamed at real-time pace in 20 ms /
 * 640-byte frames with `realtime_feedback` on. Interim frames arrive while the audio is still
 * being sent, carry the session's tokenId, `recordId:''`, `eof:0`, the unit counts and the
 * per-word progress, and deliver each reference word once, in order, before the final result.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { listeningAppWithAccount, type TestAccount } from '../helpers/gateway.js';
import { charged, ledger } from '../helpers/ledger.js';
import { englishRecording, type Recording } from '../helpers/recordings.js';
import { connect, streamAtRealTime, type Received } from '../helpers/ws.js';

let app: FastifyInstance;
let base: string;
let account: TestAccount;
let en: Recording;

before(async () => {
  ({ app, base, account } = await listeningAppWithAccount('ws', { quota: 5 }));
  await app.speech.acoustic(); // models loaded, as a server does before it reports ready
  en = await englishRecording(2);
});
after(() => app.close());

test('sent.eval with realtime_feedback: English interim results at real-time pace, each reference word once, before the final', async () => {
  const start = await ledger(app, account);
  const reference = en.text.split(' ');
  const { client, first } = await connect(`${base}/sent.eval?token=${account.token}`);
  assert.deepEqual(first, { event: 'connected', coreType: 'sent.eval' });
  client.send({ refText: en.text, language: 'en-US', realtime_feedback: true });
  assert.deepEqual(await client.json(), { event: 'started' });

  const seen: Received[] = [];
  const collecting = client.until((f) => f.eof === 1 || f.event === 'error', seen, 120_000);
  await streamAtRealTime(client, en.wav, 640, 20);
  const endSentAt = Date.now();
  client.send({ cmd: 'end' });
  const final = await collecting;
  client.close();
  assert.equal(final.json.eof, 1, final.text);
  assert.match(final.json.recordId, /^eval_/);

  const interims = seen.filter((f) => f.json.tokenId !== undefined);
  const progress = seen.filter((f) => f.json.tokenId === undefined);
  assert.ok(progress.length >= 2 && progress.every((f) => f.json.eof === 0 && Number.isInteger(f.json.result.bytes)), 'byte progress frames');
  assert.ok(interims.length >= 2, `interim frames: ${interims.length}`);
  assert.ok(interims.some((f) => f.at < endSentAt), 'interim results arrive before end is sent');
  assert.ok(interims.every((f) => f.at <= final.at));

  const tokenId = interims[0].json.tokenId;
  assert.equal(typeof tokenId, 'string');
  assert.ok(tokenId.length > 0);
  let read = 0;
  for (const { json: frame } of interims) {
    assert.equal(frame.tokenId, tokenId, 'one token id per session');
    assert.equal(frame.recordId, '');
    assert.equal(frame.eof, 0);
    const r = frame.result;
    assert.equal(typeof r.kernel_version, 'string');
    assert.equal(typeof r.resource_version, 'string');
    assert.equal(r.totalUnits, reference.length);
    assert.ok(r.words.length > 0, 'nothing is sent when nothing new was read');
    // readUnits is the position: the words already delivered plus those of this frame.
    assert.equal(r.readUnits, read + r.words.length);
    r.words.forEach((w: any, i: number) => {
      const index = read + i;
      assert.equal(w.word.toLowerCase(), reference[index]);
      assert.equal(w.charType, 0);
      const matched = w.scores.pronunciation === 100;
      assert.deepEqual(w.scores, { pronunciation: matched ? 100 : 0, skipped: matched ? 0 : 1, tone: 0, overall: matched ? 100 : 0, overall_pron: matched ? 100 : 0 });
      const begin = reference.slice(0, index).join(' ').length + (index > 0 ? 1 : 0);
      assert.deepEqual(w.word_parts, [{ part: w.word, charType: 0, beginIndex: begin, endIndex: begin + w.word.length }]);
    });
    read = r.readUnits;
    assert.equal(r.progress.length, reference.length);
    r.progress.forEach((p: any, i: number) => {
      assert.equal(p.word.toLowerCase(), reference[i]);
      assert.equal(p.read, i < read);
      if (!p.read) assert.equal(p.matched, false);
    });
    assert.equal(r.matchedUnits, r.progress.filter((p: any) => p.matched).length);
    assert.ok(r.matchedUnits <= r.readUnits);
  }
  // Across frames: every reference word, each once, in order (the tail before the final).
  const delivered = interims.flatMap((f) => f.json.result.words.map((w: { word: string }) => w.word.toLowerCase()));
  assert.deepEqual(delivered, reference);
  const last = interims.at(-1)!.json.result;
  assert.ok(last.matchedUnits >= reference.length - 2, `a correct reading matches: ${last.matchedUnits} of ${reference.length}`);
  assert.deepEqual(await ledger(app, account), { ...charged(start, 1), quota: start.quota }, 'console tokens are metered, not charged to the key');
});
