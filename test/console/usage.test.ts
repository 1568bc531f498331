/** The usage-statistics service behind GET /api/v1/console/usage, over real SQLite storage. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { usageReport } from '../../src/console/usage.js';
import { evaluationUsage, ttsUsage } from '../../src/metering/meters.js';
import { createSqlLedger } from '../../src/storage/sql/ledger.js';
import { ApiError } from '../../src/errors.js';
import type { KouyuStorage } from '../../src/storage/index.js';
import { testConfig } from '../helpers/app.js';
import { openMigrated } from '../storage/backends.js';

let storage: KouyuStorage;
let tenantId: string;
let otherTenant: string;
const NOW = Date.parse('2026-06-10T04:00:00Z'); // 12:00 in Beijing on 2026-06-10

before(async () => {
  storage = await openMigrated(testConfig());
  tenantId = (await storage.admin.createTenant({ name: 'a', tier: 'standard' })).id;
  otherTenant = (await storage.admin.createTenant({ name: 'b', tier: 'standard' })).id;
  const at = (iso: string) => createSqlLedger(storage.db, () => Date.parse(iso));
  const subject = { tenantId, meterKey: 'ak_one' };
  await at('2026-06-01T02:00:00Z').commitSuccess({ usage: evaluationUsage(subject, '床前明月光', 2.25) });
  await at('2026-06-01T03:00:00Z').commitSuccess({ usage: evaluationUsage(subject, 'hello', 1.5) });
  await at('2026-06-09T17:00:00Z').commitSuccess({ usage: ttsUsage({ tenantId, meterKey: 'ak_two' }, '你好世界') });
  await at('2026-06-09T17:00:00Z').commitSuccess({ usage: ttsUsage({ tenantId: otherTenant, meterKey: 'ak_x' }, 'other tenant') });
});
after(async () => storage.close());

test('rows per day, key and meter, with totals', async () => {
  const report = await usageReport(storage.usage, tenantId, { from: '2026-06-01', to: '2026-06-10' }, NOW);
  assert.equal(report.from, '2026-06-01');
  assert.equal(report.to, '2026-06-10');
  assert.deepEqual(report.rows, [
    { day: '2026-06-01', appKey: 'ak_one', meter: 'evaluation.audio_seconds', quantity: 3.75 },
    { day: '2026-06-01', appKey: 'ak_one', meter: 'evaluation.calls', quantity: 2 },
    { day: '2026-06-01', appKey: 'ak_one', meter: 'evaluation.chars', quantity: 10 },
    { day: '2026-06-10', appKey: 'ak_two', meter: 'tts.standard', quantity: 4 },
  ]);
  assert.deepEqual(report.totals, { 'evaluation.audio_seconds': 3.75, 'evaluation.calls': 2, 'evaluation.chars': 10, 'tts.standard': 4 });
});

test('filters by appKey and meter; defaults to the 30 days ending today (Beijing)', async () => {
  const byKey = await usageReport(storage.usage, tenantId, { appKey: 'ak_two' }, NOW);
  assert.equal(byKey.to, '2026-06-10');
  assert.equal(byKey.from, '2026-05-12');
  assert.deepEqual(byKey.totals, { 'tts.standard': 4 });
  const byMeter = await usageReport(storage.usage, tenantId, { from: '2026-06-01', to: '2026-06-01', meter: 'evaluation.calls' }, NOW);
  assert.deepEqual(byMeter.rows.map((r) => r.quantity), [2]);
});

test('bad ranges are 40001 with a message naming the problem', async () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ from: '2026-6-1', to: '2026-06-10' }, /from must be a date/],
    [{ from: '2026-02-30', to: '2026-03-10' }, /from must be a date/],
    [{ from: '2026-06-11', to: '2026-06-10' }, /is after to/],
    [{ from: '2025-06-09', to: '2026-06-10' }, /at most 366 days/],
    [{ meter: 'evaluation.minutes' }, /meter must be one of/],
  ];
  for (const [query, message] of cases) {
    await assert.rejects(usageReport(storage.usage, tenantId, query, NOW), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, 40001);
      assert.match(err.message, message);
      return true;
    });
  }
  // 366 days inclusive is allowed (2024 is a leap year).
  const year = await usageReport(storage.usage, tenantId, { from: '2024-01-01', to: '2024-12-31' }, NOW);
  assert.deepEqual(year.rows, []);
});
