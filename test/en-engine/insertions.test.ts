/**
 * Insertions (readType 1) and repetitions (readType 3) on native recordings spliced in memory
 * at the spans of the engine's own alignment of the unaltered reading; the reference text is
 * unchanged, so the extra speech is not in it.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { DecodedAudio } from '../../src/audio/decode.js';
import { presentReadAloud } from '../../src/assessment/presenter.js';
import { toAssessment } from '../../src/en/engine/index.js';
import type { ReadingEvidence, WordEvidence } from '../../src/en/engine/evidence.js';
import { placeExtraSpeech, type ExtraSpeech } from '../../src/en/engine/insertions.js';
import { measureFluency } from '../../src/en/engine/fluency.js';
import { audio, closeEngine, config, englishEngine, LIBRIVOX1, LJ2 } from './setup.js';

after(closeEngine);

const LJ5 = {
  file: ['ljspeech', 'wavs', 'LJ001-0005.flac'],
  text:
    'the invention of movable metal letters in the middle of the fifteenth century may justly be considered as the invention of the art of printing.',
};

/** `a` with `piece` inserted at frame `at` (10 ms frames of 16 kHz audio). */
function spliced(a: DecodedAudio, at: number, piece: Int16Array): DecodedAudio {
  const pcm = new Int16Array(a.pcm.length + piece.length);
  pcm.set(a.pcm.subarray(0, at * 160));
  pcm.set(piece, at * 160);
  pcm.set(a.pcm.subarray(at * 160), at * 160 + piece.length);
  return { ...a, pcm, durationSec: pcm.length / 16000 };
}

/** `a` with word `w` of the engine's alignment said again right after itself. */
function saidTwice(a: DecodedAudio, w: { startFrame: number; endFrame: number }): DecodedAudio {
  return spliced(a, w.endFrame, a.pcm.slice(w.startFrame * 160, w.endFrame * 160));
}

test('a clean native reading shows no insertion and no repetition', async () => {
  const { engine } = await englishEngine();
  const cfg = config({ referenceText: LJ5.text });
  const en = await engine.inspect(cfg, await audio(...LJ5.file));
  assert.deepEqual(en.extraWords.map((w) => w.text), []);
  assert.equal(en.fluencyMeasures.repetitions, 0);
  assert.ok(toAssessment(en, cfg).units.every((u) => u.readType === 0 || u.readType === 2));
});

test('a word of another recording spliced in between two words is an insertion (readType 1) there', async () => {
  const { engine } = await englishEngine();
  // "Dashwood" from a LibriVox reading, cut at the engine's span of it.
  const donorAudio = await audio(...LIBRIVOX1.file);
  const donor = (await engine.inspect(config({ referenceText: LIBRIVOX1.text }), donorAudio)).words.find((w) => w.text === 'Dashwood')!;
  const piece = donorAudio.pcm.slice(donor.startFrame * 160, donor.endFrame * 160);
  const cfg = config({ referenceText: LJ2.text });
  const base = await audio(...LJ2.file);
  const clean = await engine.inspect(cfg, base);
  const [comparatively, modern] = [clean.words[2], clean.words[3]];
  const at = Math.floor((comparatively.endFrame + modern.startFrame) / 2);
  const en = await engine.inspect(cfg, spliced(base, at, piece));
  const inserted = en.extraWords.filter((w) => w.readType === 1);
  assert.equal(inserted.length, 1, `extra words: ${en.extraWords.map((w) => `${w.text}/${w.readType}`).join(', ')}`);
  assert.equal(inserted[0].readStatus, 'inserted');
  assert.equal(inserted[0].index, 2, 'placed after "comparatively"');
  assert.ok(inserted[0].startFrame < at + piece.length / 160 && inserted[0].endFrame > at, 'its span covers the spliced audio');
  // The reference words are all still read; integrity counts the insertion against them.
  assert.ok(en.words.every((w) => w.readType === 0));
  assert.ok(en.dimensions.integrity < 100, `integrity ${en.dimensions.integrity}`);
  // Listed only with readtype_diagnosis, after the word it follows.
  const a = toAssessment(en, cfg);
  assert.deepEqual((presentReadAloud(a, cfg).result.words as { readType: number }[]).map((w) => w.readType), [0, 0, 0, 0]);
  const diag = presentReadAloud(a, cfg, { readtypeDiagnosis: true }).result.words as { readType: number; readStatus: string }[];
  assert.deepEqual(diag.map((w) => w.readType), [0, 0, 0, 1, 0]);
  assert.equal(diag[3].readStatus, 'inserted');
  assertInOrder(a);
  // The advice names the extra word, not a word left out (none was).
  assert.equal(a.suggestions.integrity, 'Read only the words of the text; words that are not in it were heard.');
});

/** Timed units (words and extra speech, in the order the response lists them) never overlap. */
function assertInOrder(a: ReturnType<typeof toAssessment>): void {
  const timed = a.units.filter((u) => u.span && u.span.end > u.span.start);
  for (let k = 1; k < timed.length; k++) {
    const [x, y] = [timed[k - 1], timed[k]];
    assert.ok(y.span!.start >= x.span!.end, `${x.text} ${x.span!.start}-${x.span!.end} / ${y.text} ${y.span!.start}-${y.span!.end}`);
  }
}

/** LJ5 with word `k` (which must be `text`) said twice, inspected. */
async function withWordTwice(k: number, text: string) {
  const { engine } = await englishEngine();
  const cfg = config({ referenceText: LJ5.text });
  const base = await audio(...LJ5.file);
  const word = (await engine.inspect(cfg, base)).words[k];
  assert.equal(word.text, text);
  return { cfg, en: await engine.inspect(cfg, saidTwice(base, word)) };
}

test('a word said twice is a repetition (readType 3) of that word, and fluency counts it', async () => {
  const { cfg, en } = await withWordTwice(1, 'invention');
  const repeated = en.extraWords.filter((w) => w.readType === 3);
  assert.deepEqual(repeated.map((w) => [w.text, w.index, w.readStatus]), [['invention', 1, 'repeated']]);
  assert.equal(en.extraWords.filter((w) => w.readType === 1).length, 0);
  assert.equal(en.fluencyMeasures.repetitions, 1);
  // A repetition is a fluency fault, not a gap in coverage.
  assert.equal(en.dimensions.integrity, 100);
  const a = toAssessment(en, cfg);
  const units = a.units.map((u) => [u.text, u.readType]);
  assert.deepEqual(units.slice(0, 4), [['the', 0], ['invention', 0], ['invention', 3], ['of', 0]]);
  assert.deepEqual(a.sentences[0].units, a.units.map((_, i) => i));
  // The word's span holds its first token: the second one, inside it in the reading's own
  // alignment, is the repetition's.
  assertInOrder(a);
});

test('a short function word said twice is a repetition of that word, found by the whole-reading repeat decode', async () => {
  const { en } = await withWordTwice(2, 'of');
  const repeated = en.extraWords.filter((w) => w.readType === 3);
  assert.deepEqual(repeated.map((w) => [w.text, w.index]), [['of', 2]]);
  assert.equal(en.extraWords.filter((w) => w.readType === 1).length, 0);
  assertInOrder(toAssessment(en, config({ referenceText: LJ5.text })));
  assert.equal(en.fluencyMeasures.repetitions, 1);
});

test('placeExtraSpeech: the words around extra speech give its frames up, phones cut with them, and it is no pause', () => {
  const word = (index: number, startFrame: number, endFrame: number, status: 'read' | 'omitted' = 'read'): WordEvidence =>
    ({
      index,
      status,
      startFrame,
      endFrame,
      pauseAfter: 0,
      entry: { word: { punctuationAfter: '', sentenceIndex: 0, spoken: ['w'] }, functionWord: false },
      phones: [
        { phone: 'AH', stress: 1, startFrame, endFrame: Math.floor((startFrame + endFrame) / 2), gop: -1, forced: -1 },
        { phone: 'T', stress: null, startFrame: Math.floor((startFrame + endFrame) / 2), endFrame, gop: -1, forced: -1 },
      ],
    }) as unknown as WordEvidence;
  const ev = { ok: true, failure: null, frames: 200, words: [word(0, 0, 60), word(1, -1, -1, 'omitted'), word(2, 60, 100)], speechStart: 0, speechEnd: 100 } as ReadingEvidence;
  const found = (after: number, startFrame: number, endFrame: number): ExtraSpeech => ({ after, kind: 'repeated', word: 0, heard: [], extent: { startFrame: 0, endFrame }, startFrame, endFrame });
  // A repetition's second token inside word 0's span, reaching into word 2 (past the skipped word 1).
  const { evidence, extra } = placeExtraSpeech(ev, [found(1, 40, 70)]);
  assert.deepEqual([evidence.words[0].startFrame, evidence.words[0].endFrame, evidence.words[2].startFrame, evidence.words[2].endFrame], [0, 40, 70, 100]);
  assert.deepEqual(evidence.words[0].phones.map((p) => [p.startFrame, p.endFrame]), [[0, 30], [30, 40]]);
  assert.deepEqual(evidence.words[2].phones.map((p) => [p.startFrame, p.endFrame]), [[70, 80], [80, 100]]);
  assert.deepEqual(extra.map((x) => [x.startFrame, x.endFrame]), [[40, 70]]);
  assert.equal(evidence.words[0].extraAfter, 30);
  // The 30 frames between the two read words are the repetition's, not a pause.
  assert.deepEqual(measureFluency(evidence).boundaries.map((b) => b.pauseMs), [0]);
  // Extra speech over the start of the word before it is cut to leave that word a frame; the input is not changed.
  const early = placeExtraSpeech(ev, [found(0, 0, 20)]);
  assert.deepEqual(early.extra.map((x) => [x.startFrame, x.endFrame]), [[1, 20]]);
  assert.deepEqual([early.evidence.words[0].startFrame, early.evidence.words[0].endFrame], [0, 1]);
  assert.deepEqual([ev.words[0].startFrame, ev.words[0].endFrame], [0, 60]);
  assert.equal(placeExtraSpeech(ev, []).evidence, ev);
});
