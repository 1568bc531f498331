import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { concatPcm } from '../../src/audio/resample.js';
import { loadEnglishLexicon } from '../../src/en/lexicon/index.js';
import { alignReading, CHUNK_ABOVE_WORDS, rescueSpans } from '../../src/en/engine/align.js';
import { readEvidence, RESCUE_GOP } from '../../src/en/engine/evidence.js';
import { shortWordLeniency } from '../../src/en/engine/dimensions.js';
import { planReading } from '../../src/en/engine/plan.js';
import { createInThreadBackend } from '../../src/acoustic/backend.js';
import { decoderArgsOf } from '../../src/acoustic/sphinx/engine.js';
import { createEnglishEngine, type EnglishEngine } from '../../src/en/engine/index.js';
import { testConfig } from '../helpers/app.js';
import { audio, closeEngine, config, EN_DATA, englishEngine } from './setup.js';

after(closeEngine);

/** Three consecutive LibriVox sentences of one reader, joined: 45 words, 15 s. */
async function longReading(): Promise<{ text: string; pcm: Int16Array }> {
  const dir = path.join(EN_DATA, 'librivox');
  const ids = ['0870', '0880', '0890'].map((n) => `sense_and_sensibility_01_austen_64kb-${n}`);
  const pcms = await Promise.all(ids.map(async (id) => (await audio('librivox', `${id}.flac`)).pcm));
  return { text: ids.map((id) => fs.readFileSync(path.join(dir, `${id}.txt`), 'utf8').trim()).join(' '), pcm: concatPcm(pcms) };
}

test('a long reading aligned in pieces agrees with the whole-reading alignment', async () => {
  const { backend } = await englishEngine();
  const { text, pcm } = await longReading();
  const plan = planReading(await loadEnglishLexicon(), text, 'passage', 'en-US');
  assert.ok(plan.entries.length > CHUNK_ABOVE_WORDS, `${plan.entries.length} words`);
  const pieces = readEvidence(plan, (await alignReading(backend, pcm, plan.grammar)).result);
  const whole = readEvidence(plan, await backend.align('en', pcm, plan.grammar, { phones: true, gop: true }));
  const both = pieces.words.filter((w, i) => w.status === 'read' && whole.words[i].status === 'read');
  assert.ok(both.length >= plan.entries.length - 2, `${both.length} of ${plan.entries.length} words read by both`);
  const shift = both.map((w) => Math.abs(w.startFrame - whole.words[w.index].startFrame) + Math.abs(w.endFrame - whole.words[w.index].endFrame));
  assert.ok(shift.reduce((a, b) => a + b, 0) / shift.length < 4, `mean boundary shift ${shift}`);
  for (let i = 1; i < both.length; i++) assert.ok(both[i].startFrame >= both[i - 1].endFrame, 'words in reading order');
  const gop = (ws: typeof both) => ws.reduce((a, w) => a + w.phones.reduce((s, p) => s + p.gop, 0) / w.phones.length, 0) / ws.length;
  const wholeRead = both.map((w) => whole.words[w.index]);
  assert.ok(Math.abs(gop(both) - gop(wholeRead)) < 0.3, `mean word GOP ${gop(both)} against ${gop(wholeRead)}`);
});

test('rescue windows enclose each run of skipped words between read words, with context', () => {
  const read = (a: number, b: number) => ({ startFrame: a, endFrame: b });
  // Ten words of 50 frames each; words 2 and 8 skipped.
  const spans = Array.from({ length: 10 }, (_, i) => (i === 2 || i === 8 ? null : read(i * 50, i * 50 + 40)));
  const out = rescueSpans(spans, 600);
  // Both runs need their context widened to 3 s (300 frames), so they merge into one window.
  assert.equal(out.length, 1);
  assert.equal(out[0].first, 0);
  assert.equal(out[0].end, 10);
  assert.deepEqual(out[0].window, { startFrame: 0, endFrame: 600 });
  const long = Array.from({ length: 40 }, (_, i) => (i === 20 ? null : read(i * 100, i * 100 + 90)));
  const [one] = rescueSpans(long, 4000);
  assert.deepEqual([one.first, one.end], [17, 24]);
  assert.deepEqual(one.window, { startFrame: 1690, endFrame: 2400 });
});

test('a replaced word after which the first pass loses the thread: the required pass takes the window over', async () => {
  const { engine } = await englishEngine();
  // LJ001-0001 read as recorded; "which" in the text replaced by "pocket". The optional-slot
  // pass skips the eleven words after it; they were read and must not be flagged.
  const text = 'Printing, in the only sense with pocket we are at present concerned, differs from most if not from all the arts and crafts represented in the Exhibition';
  const en = await engine.inspect(config({ referenceText: text }), await audio('ljspeech', 'wavs', 'LJ001-0001.flac'));
  const pocket = en.words.find((w) => w.text === 'pocket')!;
  assert.notEqual(pocket.readStatus, 'correct');
  const others = en.words.filter((w) => w !== pocket && w.readStatus !== 'correct');
  assert.ok(others.length <= 2, `flagged ${others.map((w) => w.text).join(', ')}`);
});

test('a word the second look puts back takes its speech from the neighbour the first pass had stretched over it: spans stay in order', async () => {
  const { engine } = await englishEngine();
  // A learner's "love is a strong man in the middle": the first pass stretches "man" over "in"
  // and skips it; the required pass reads both, and both are taken from it.
  const text = 'LOVE IS A STRONG MAN IN THE MIDDLE';
  const reading = await engine.analyse(config({ referenceText: text }), await audio('speechocean762', 'test', '000240248.opus'));
  const read = reading.evidence.words.filter((w) => w.status === 'read');
  assert.equal(read.length, 8, reading.evidence.words.map((w) => `${w.entry.word.text}:${w.status}`).join(' '));
  for (let k = 1; k < read.length; k++) {
    assert.ok(read[k].startFrame >= read[k - 1].endFrame, `${read[k - 1].entry.word.text} ${read[k - 1].startFrame}-${read[k - 1].endFrame} / ${read[k].entry.word.text} ${read[k].startFrame}-${read[k].endFrame}`);
  }
  for (const w of read) for (const p of w.phones) assert.ok(p.startFrame >= w.startFrame && p.endFrame <= w.endFrame, `${w.entry.word.text}: phones inside the word`);
});

test('the second look puts back a short word said quickly, by the short-word leniency of scoring', async () => {
  const { engine } = await englishEngine();
  // LJ001-0005 as read: the first pass skips "the" of "in the middle"; the required pass finds
  // it in 6 frames with a mean GOP under RESCUE_GOP, within the leniency a 6-frame mean is given.
  const text = 'the invention of movable metal letters in the middle of the fifteenth century may justly be considered as the invention of the art of printing.';
  const reading = await engine.analyse(config({ referenceText: text }), await audio('ljspeech', 'wavs', 'LJ001-0005.flac'));
  const the = reading.evidence.words[7];
  assert.equal(`${the.entry.word.text}:${the.status}`, 'the:read');
  const gop = the.phones.reduce((a, p) => a + p.gop, 0) / the.phones.length;
  assert.ok(gop < RESCUE_GOP && gop >= RESCUE_GOP - shortWordLeniency(the.endFrame - the.startFrame), `mean GOP ${gop} over ${the.endFrame - the.startFrame} frames`);
});

test('English aligns with no word insertion penalty: a reduced "it" of a native reading is read, and skipped under the library\'s penalty (its GOP then carries it)', async () => {
  const text = 'And it is worth mention in passing that, as an example of fine typography,';
  const cfg = config({ referenceText: text });
  const pcm = await audio('ljspeech', 'wavs', 'LJ001-0006.flac');
  const skipped = async (engine: EnglishEngine) => (await engine.analyse(cfg, pcm)).evidence.words.filter((w) => w.status !== 'read').map((w) => w.entry.word.text);
  assert.deepEqual(await skipped((await englishEngine()).engine), []);
  const backend = createInThreadBackend(testConfig(), { langs: ['en'], decoderArgs: decoderArgsOf('en', '-wip 0.65') });
  try {
    assert.deepEqual(await skipped(createEnglishEngine({ backend, lexicon: await loadEnglishLexicon() })), ['it']);
  } finally {
    await backend.close();
  }
});
