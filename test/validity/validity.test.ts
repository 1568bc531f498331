/**
 * The validity subsets of both engines (`validity:zh -- --subset`, `validity:en -- --subset`)
 * run as part of the test suite, on real recordings, and their figures are held to floors: the
 * issues' targets where the subset meets them with room, otherwise a margin under what the
 * subset gives today, so that a change which breaks a judgement fails here. The full runs, and
 * what falls short of the targets, are in docs/mandarin-engine.md and docs/english-engine.md.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../helpers/app.js';

const run = promisify(execFile);

/** Runs a validity tool with --subset and returns the JSON object of its last line. */
async function figures(tool: string): Promise<Record<string, any>> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'tools', tool), '--subset'], {
    cwd: REPO_ROOT,
    maxBuffer: 16 * 1024 * 1024,
    timeout: 10 * 60 * 1000,
  });
  const last = stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last);
}

const atLeast = (value: unknown, floor: number, what: string) => {
  assert.equal(typeof value, 'number', `${what} is a number`);
  assert.ok((value as number) >= floor, `${what}: ${value} < ${floor}`);
};
const atMost = (value: unknown, ceiling: number, what: string) => {
  assert.equal(typeof value, 'number', `${what} is a number`);
  assert.ok((value as number) <= ceiling, `${what}: ${value} > ${ceiling}`);
};

test('validity:zh subset: correct readings, substitutions, tones, omissions and sibilant place', { timeout: 11 * 60 * 1000 }, async () => {
  const f = await figures('validity-zh.ts');
  assert.equal(f.sentences, 16);
  atLeast(f.overallMedian, 90, 'median overall of correct readings');
  atMost(f.falseRejection, 0.05, 'false rejections');
  atLeast(f.substitutionRecall, 0.5, 'substitution recall');
  atLeast(f.substitutionPrecision, 0.6, 'substitution precision');
  atLeast(f.toneErrorRecall, 0.85, 'tone-error recall');
  atMost(f.toneFalseAlarm, 0.1, 'tone false alarms');
  atLeast(f.toneRecognition, 0.8, 'tone recognition');
  atLeast(f.omissionRecall, 0.85, 'omission recall');
  atLeast(f.insertionRecall, 0.3, 'insertion recall');
  // The subset's 14 cases give 0.5; with the check of the sibilants' band above 4 kHz switched
  // off (a variant of the engine, 2026-11-29) they gave 0.29.
  atLeast(f.placeRecall, 0.45, 'sibilant place recall');
  assert.equal(f.readingsWithSpansOutOfOrder, 0, 'readings whose spans overlap');
});

test('validity:en subset: speechocean762, native reading, alterations, splices, non-native and phrasing', { timeout: 11 * 60 * 1000 }, async () => {
  const f = await figures('validity-en.ts');
  assert.equal(f.mode, 'subset');
  atLeast(f.so762.utterance.total, 0.25, 'speechocean762 utterance total (20 utterances)');
  atLeast(f.so762.phone_accuracy, 0.08, 'speechocean762 phone accuracy (20 utterances)');
  atLeast(f.native.all.medianOverall, 90, 'native median overall');
  atMost(f.native.all.wordsFlagged, 0.05, 'native words flagged');
  atLeast(f.native.passages[0].overall, 90, 'native passage of 25 s: overall');
  atMost(f.native.extraPer100Words, 1, 'insertions or repetitions found on native readings, per 100 words');
  atLeast(f.alterations.substitution.recall, 0.6, 'substitution recall');
  atLeast(f.alterations.omission.recall, 0.9, 'omission recall');
  atLeast(f.alterations.omissionFunctionWord.recall, 0.25, 'omission recall of an added function word (8 cases)');
  atLeast(f.splices.repetition.recall, 0.25, 'repetition recall');
  atLeast(f.splices.repetition.precision, 0.8, 'repetition precision');
  assert.ok(f.alphanumeric.nativeMean > f.alphanumeric.nonNativeMean, 'native speakers score higher than non-native ones');
  atLeast(f.phrasing.spearmanReadingSkill, 0.25, 'phrasing: Spearman of reading skill with the experts');
  assert.equal(f.readingsWithSpansOutOfOrder, 0, 'readings whose spans overlap');
});
