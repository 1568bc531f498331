import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dimensionWeights, presentReadAloud } from '../../src/assessment/presenter.js';
import { GRADE_BAND_WEIGHTS } from '../../src/assessment/shaping.js';
import type { Assessment, UnitAssessment } from '../../src/assessment/types.js';
import { parseEvaluationConfig } from '../../src/evaluation/config.js';

function unit(over: Partial<UnitAssessment>): UnitAssessment {
  return {
    text: '好', charType: 0, readType: 0, readStatus: 'correct', beginIndex: 0, endIndex: 1, sentence: 0,
    span: { start: 10, end: 30 }, pronunciation: 90, gop: 80, prominence: 50,
    tone: { citation: 3, expected: 3, heard: 3, score: 100, shape: 80, error: false },
    pauseAfter: { type: 0, duration: 0 },
    phones: [{ phoneme: 'h', phone: 'h', category: 0, pronunciation: 88, toneIndex: '', span: { start: 10, end: 15 } }],
    extra: { pinyin: 'hao', rawpinyin: 'hao3', symbolpinyin: 'hǎo', tone: 'tone3', normalized_syllables: [], word_parts: [] },
    heard: { text: '好', syllable: 'hao', final: 'ao' },
    ...over,
  };
}

/** A hand-made assessment: two read characters, punctuation, one insertion, one omission. */
function assessment(): Assessment {
  const units = [
    unit({}),
    unit({ text: '，', charType: 1, pronunciation: null, gop: null, tone: null, phones: [], heard: null, span: null, beginIndex: 1, endIndex: 2 }),
    unit({ text: 'ma', readType: 1, readStatus: 'inserted', beginIndex: -1, endIndex: -1, pronunciation: null, tone: null }),
    unit({ text: '书', readType: 2, readStatus: 'skipped', span: null, pronunciation: null, gop: null, tone: null, phones: [], heard: null, beginIndex: 2, endIndex: 3 }),
  ];
  return {
    language: 'zh-CN', coreType: 'passage', units,
    sentences: [{ index: 0, text: '好，书', span: { start: 10, end: 30 }, scores: { overall: 70, pronunciation: 90, fluency: 80, integrity: 50 }, units: [0, 1, 2, 3] }],
    paragraphs: [{ index: 0, text: '好，书', overall: 70, pronunciation: 90, fluency: 80, integrity: 50, sentences: [0] }],
    dimensions: { integrity: 50, accuracy: 87.44, fluency: 80, readingSkill: 70, emotion: 60 },
    sub: { pronunciation: 90, tone: 100, toneShape: 80, nasal: null, phoneme: 88, speedScore: 100, naturalness: 90, pause: 70, stress: 60, intonation: 75, rhythm: null, prosody: 67 },
    overall: 71.26, weights: GRADE_BAND_WEIGHTS[4], speed: 180, rearTone: 'fall', durationSec: 1.234,
    warnings: [{ code: 1005, message: 'Audio not complete!' }],
    suggestions: { integrity: 'a', accuracy: 'b', fluency: 'c', skill: 'd', emotion: 'e' },
    emotionDiagnosis: null, kernelVersion: 'k', resourceVersion: 'r',
  };
}

const COMPOSITE_KEYS = ['compositeScore', 'integrityScore', 'accuracyScore', 'toneVoiceScore', 'toneScore', 'nasalsScore', 'phonemeScore', 'fluencyScore', 'readSpeedScore', 'readSpeed', 'skillScore', 'stopConnScore', 'stressScore', 'intonationScore', 'readingRhythmScore', 'emotionScore', 'integritySuggest', 'accuracySuggest', 'fluencySuggest', 'skillSuggest', 'emotionSuggest', 'completenessScore', 'pronunciationScore'];
const RESULT_KEYS = ['overall', 'integrity', 'pronunciation', 'tone', 'fluency', 'rhythm', 'accuracy', 'reading_skill', 'emotion', 'speed', 'rear_tone', 'duration', 'numeric_duration', 'warning', 'words', 'sentences', 'paragraphs', 'compositeReport', 'serviceScores', 'kernel_version', 'resource_version'];
const WORD_KEYS = ['word', 'pinyin', 'rawpinyin', 'symbolpinyin', 'charType', 'readType', 'readStatus', 'read_status', 'tone', 'scores', 'span', 'pause', 'phonemes', 'normalized_syllables', 'word_parts'];

test('result carries every spec field; compositeReport every key with the deprecated aliases equal to their targets', () => {
  const config = parseEvaluationConfig({ coreType: 'passage', language: 'zh-CN', referenceText: '好，书', paragraphNeedWordScore: 1 });
  const { result, asrText, warnings } = presentReadAloud(assessment(), config);
  for (const k of RESULT_KEYS) assert.ok(k in result, `result.${k}`);
  const cr = result.compositeReport as Record<string, unknown>;
  for (const k of COMPOSITE_KEYS) assert.ok(k in cr, `compositeReport.${k}`);
  assert.equal(cr.completenessScore, cr.integrityScore);
  assert.equal(cr.pronunciationScore, cr.accuracyScore);
  assert.equal(cr.readingRhythmScore, null);
  assert.equal(result.duration, '1.23');
  assert.deepEqual(warnings, [{ code: 1005, message: 'Audio not complete!' }]);
  const ss = result.serviceScores as Record<string, Record<string, unknown>>;
  assert.deepEqual(Object.keys(ss.accuracy), ['tone', 'nasal', 'phoneme']);
  assert.deepEqual(Object.keys(ss.reading_skill), ['pause', 'stress', 'intonation', 'rhythm_zh']);
  const words = result.words as Record<string, unknown>[];
  for (const k of WORD_KEYS) assert.ok(k in words[0], `words[].${k}`);
  assert.equal(asrText.alignment.length, 2, 'reference characters only without diagnosis');
  assert.equal(asrText.alignment[1].read_status, 'missed');
  assert.equal(asrText.alignment[1].gop_score, null);
});

test('insertions appear in words only with readtype diagnosis; omissions always do', () => {
  const config = parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: '好，书' });
  const plain = presentReadAloud(assessment(), config).result.words as { readType: number }[];
  assert.deepEqual(plain.map((w) => w.readType), [0, 0, 2]);
  const diag = presentReadAloud(assessment(), config, { readtypeDiagnosis: true }).result.words as { readType: number }[];
  assert.deepEqual(diag.map((w) => w.readType), [0, 0, 1, 2]);
});

test('passage with paragraphNeedWordScore 0 leaves words and sentence details empty; 1 fills them', () => {
  const zero = presentReadAloud(assessment(), parseEvaluationConfig({ coreType: 'passage', language: 'zh-CN', referenceText: '好，书' }));
  assert.deepEqual(zero.result.words, []);
  assert.deepEqual((zero.result.sentences as { details: unknown[] }[])[0].details, []);
  const one = presentReadAloud(assessment(), parseEvaluationConfig({ coreType: 'passage', language: 'zh-CN', referenceText: '好，书', paragraphNeedWordScore: 1 }));
  assert.equal((one.result.words as unknown[]).length, 3);
  assert.equal((one.result.sentences as { details: unknown[] }[])[0].details.length, 3);
});

test('scale 10 and precision 0.1 shape every score; phonemeOutput false drops phonemes', () => {
  const config = parseEvaluationConfig({ coreType: 'sentence', language: 'zh-CN', referenceText: '好，书', scale: 10, precision: 0.1, phonemeOutput: false });
  const { result } = presentReadAloud(assessment(), config);
  assert.equal(result.overall, 7.1);
  assert.equal(result.accuracy, 8.7);
  assert.equal((result.compositeReport as Record<string, unknown>).accuracyScore, 8.7);
  assert.equal(result.speed, 180, 'speed is a raw rate, not a score');
  const w = (result.words as Record<string, unknown>[])[0];
  assert.equal((w.scores as { pronunciation: number }).pronunciation, 9);
  assert.ok(!('phonemes' in w));
});

test('dimension weights are exposed under the response names', () => {
  assert.deepEqual(dimensionWeights(assessment()), { integrity: 0.15, accuracy: 0.4, fluency: 0.2, reading_skill: 0.15, emotion: 0.1 });
});
