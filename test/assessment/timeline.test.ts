import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spansOutOfOrder } from '../../src/assessment/timeline.js';
import type { Assessment } from '../../src/assessment/types.js';

type Unit = Assessment['units'][number];
const phone = (start: number, end: number) => ({ span: { start, end } }) as Unit['phones'][number];
const unit = (span: { start: number; end: number } | null, phones: Unit['phones'] = []) => ({ span, phones }) as Unit;

test('spansOutOfOrder: units follow one another, phones inside their unit; untimed units are left out', () => {
  const inOrder = [unit({ start: 0, end: 10 }, [phone(0, 4), phone(4, 10)]), unit(null), unit({ start: 10, end: 20 }), unit({ start: 25, end: 25 })];
  assert.equal(spansOutOfOrder({ units: inOrder }), false);
  assert.equal(spansOutOfOrder({ units: [unit({ start: 0, end: 10 }), unit({ start: 9, end: 20 })] }), true, 'overlap');
  assert.equal(spansOutOfOrder({ units: [unit({ start: 10, end: 20 }), unit({ start: 0, end: 5 })] }), true, 'backwards');
  assert.equal(spansOutOfOrder({ units: [unit({ start: 0, end: 10 }, [phone(8, 12)])] }), true, 'a phone outside its unit');
});
