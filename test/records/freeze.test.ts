/**
 * Report freezing: stored records come back exactly as stored; a `v20260705a-legacy`
 * record gets only the lossless merge of its tone section and tone suggestions into accuracy.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { LEGACY_RUBRIC, mergeLegacyTone, presentRecord } from '../../src/records/freeze.js';
import { lookupReport } from '../../src/records/routes.js';
import { ApiError } from '../../src/errors.js';
import type { KouyuStorage } from '../../src/storage/index.js';
import type { EvaluationRecord } from '../../src/storage/types.js';
import { REPO_ROOT, testConfig } from '../helpers/app.js';
import { openMigrated } from '../storage/backends.js';

interface Fixture {
  id: string;
  kind: string;
  rubricVersion: string;
  response: { result: Record<string, unknown>; report: Record<string, any> };
}

const fixture = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/legacy-record.json'), 'utf8')) as Fixture;
const asRecord = (f: Fixture, tenantId = 't_1'): EvaluationRecord => ({ ...f, tenantId, appKey: 'ak_1', createdAt: 1 });

test('a legacy record folds its tone comment and tone suggestions into accuracy', () => {
  const original = structuredClone(fixture);
  const view = presentRecord(asRecord(fixture));
  const report = view.report as Record<string, any>;
  const stored = fixture.response.report;
  assert.equal(report.dimensions.accuracy, `${stored.dimensions.accuracy} ${stored.dimensions.tone}`);
  assert.equal('tone' in report.dimensions, false);
  assert.deepEqual(report.dimensionSuggestions.accuracy, [...stored.dimensionSuggestions.accuracy, ...stored.dimensionSuggestions.tone]);
  assert.equal('tone' in report.dimensionSuggestions, false);
  // Everything else untouched: other comments, scores, weights, the rubric stamp, and the whole result.
  for (const dim of ['integrity', 'fluency', 'reading_skill', 'emotion']) assert.equal(report.dimensions[dim], stored.dimensions[dim]);
  assert.deepEqual(report.dimensionScores, stored.dimensionScores);
  assert.deepEqual(report.dimensionTree, stored.dimensionTree);
  assert.deepEqual(report.suggestions, stored.suggestions);
  assert.equal(report.rubricVersion, LEGACY_RUBRIC);
  assert.deepEqual(view.score, fixture.response.result);
  assert.equal(view.recordId, fixture.id);
  assert.deepEqual(fixture, original, 'the stored record must not be modified');
});

test('the merge is lossless: every stored text still appears exactly once', () => {
  const merged = mergeLegacyTone(fixture.response.report) as Record<string, any>;
  const texts = (r: Record<string, any>) =>
    [...Object.values(r.dimensions as Record<string, string>), ...Object.values(r.dimensionSuggestions as Record<string, string[]>).flat()].sort();
  const total = (list: string[]) => list.reduce((sum, text) => sum + text.length, 0);
  const joined = texts(merged).join('\n');
  for (const piece of texts(fixture.response.report)) assert.ok(joined.includes(piece), `lost: ${piece}`);
  assert.equal(total(texts(merged)), total(texts(fixture.response.report)) + 1, 'only one joining space is added');
});

test('a current-standard record is returned exactly as stored, even with a tone key', () => {
  const current = structuredClone(fixture);
  current.rubricVersion = 'v20260705a';
  current.response.report.rubricVersion = 'v20260705a';
  const view = presentRecord(asRecord(current));
  assert.deepEqual(view.report, current.response.report);
  assert.deepEqual(view.score, current.response.result);
});

test('a legacy record without tone sections is unchanged', () => {
  const plain = structuredClone(fixture);
  delete plain.response.report.dimensions.tone;
  delete plain.response.report.dimensionSuggestions.tone;
  assert.deepEqual(presentRecord(asRecord(plain)).report, plain.response.report);
});

let storage: KouyuStorage;
before(async () => {
  storage = await openMigrated(testConfig());
});
after(async () => storage.close());

test('lookupReport finds the tenant\'s own stored record and refuses others with 40001 naming it', async () => {
  const tenant = await storage.admin.createTenant({ name: 'a', tier: 'standard' });
  const other = await storage.admin.createTenant({ name: 'b', tier: 'standard' });
  await storage.ledger.commitSuccess({
    record: { id: fixture.id, tenantId: tenant.id, appKey: null, kind: fixture.kind, rubricVersion: fixture.rubricVersion, response: fixture.response },
    usage: [],
  });
  const view = await lookupReport(storage.records, tenant.id, fixture.id);
  assert.deepEqual(view, presentRecord(asRecord(fixture, tenant.id)));
  for (const [tenantId, id] of [[other.id, fixture.id], [tenant.id, 'eval_missing']]) {
    await assert.rejects(lookupReport(storage.records, tenantId, id), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, 40001);
      assert.equal(err.status, 400);
      assert.equal(err.message, `record ${id} not found`);
      return true;
    });
  }
});
