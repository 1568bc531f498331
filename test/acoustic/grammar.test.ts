import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileGrammar, compilePhoneSequence, parseSlots, pronWord } from '../../src/acoustic/sphinx/grammar.js';
import { loopScoreOver, withGop } from '../../src/acoustic/gop.js';
import type { GrammarSpec } from '../../src/acoustic/types.js';

const grammar: GrammarSpec = {
  slots: [
    { alternatives: [{ label: '你', prons: [['n', 'i']] }] },
    { alternatives: [{ label: '好', prons: [['h', 'ao']] }, { label: '号', prons: [['h', 'ao']] }], optional: true },
    { alternatives: [{ label: 'the', prons: [['DH', 'AH'], ['DH', 'IY']] }] },
  ],
};

test('compileGrammar writes one word per pronunciation, optional slots in brackets', () => {
  const c = compileGrammar(grammar, []);
  assert.match(c.jsgf, /public <utt> = \( p_n_i \) \[ p_h_ao \] \( p_DH_AH \| p_DH_IY \);/);
  assert.deepEqual(c.words.get('p_DH_IY'), ['DH', 'IY']);
  assert.equal(c.words.size, 4);
});

test('compileGrammar adds the insertion loop only when asked', () => {
  const c = compileGrammar({ ...grammar, allowInsertions: true }, ['a', 'b']);
  assert.match(c.jsgf, /<gap> \( p_n_i \) <gap>/);
  assert.match(c.jsgf, /<phn> = p_a \| p_b;/);
  assert.throws(() => compileGrammar({ slots: [{ alternatives: [{ label: 'x', prons: [] }] }] }, []));
});

test('compilePhoneSequence makes every phone a word', () => {
  assert.match(compilePhoneSequence(['n', 'i']).jsgf, /public <utt> = p_n p_i;/);
});

test('parseSlots maps words to slots, alternatives and pronunciations', () => {
  const roles = parseSlots(['p_n_i', 'p_DH_IY'], grammar);
  assert.deepEqual(roles, [
    { kind: 'slot', slot: 0, alt: 0, pron: 0 },
    { kind: 'slot', slot: 2, alt: 0, pron: 1 },
  ]);
  assert.deepEqual(parseSlots(['p_n_i', 'p_h_ao', 'p_DH_AH'], grammar)?.[1], { kind: 'slot', slot: 1, alt: 0, pron: 0 });
});

test('parseSlots rejects a path that stops short of the grammar end', () => {
  assert.equal(parseSlots(['p_n_i'], grammar), null);
  assert.equal(parseSlots(['p_n_i', 'p_x', 'p_DH_AH'], grammar), null);
});

test('parseSlots reads inserted phones when insertions are allowed, preferring slot matches', () => {
  const g: GrammarSpec = { ...grammar, allowInsertions: true };
  const roles = parseSlots(['p_x', 'p_n_i', 'p_DH_AH', 'p_a'], g);
  assert.deepEqual(roles?.map((r) => (r.kind === 'slot' ? r.slot : r.phone)), ['x', 0, 2, 'a']);
  const single: GrammarSpec = { slots: [{ alternatives: [{ label: '啊', prons: [['a']] }] }], allowInsertions: true };
  assert.deepEqual(parseSlots([pronWord(['a'])], single), [{ kind: 'slot', slot: 0, alt: 0, pron: 0 }]);
});

test('loopScoreOver shares a loop segment in proportion to overlapping frames (exact)', () => {
  const loop = [
    { phone: 'a', startFrame: 0, endFrame: 10, score: -100 },
    { phone: 'b', startFrame: 10, endFrame: 20, score: -50 },
  ];
  assert.equal(loopScoreOver(loop, 5, 15), -50 - 25);
  assert.equal(loopScoreOver(loop, 0, 20), -150);
  const [p] = withGop([{ phone: 'a', startFrame: 5, endFrame: 15, score: -95 }], loop);
  assert.equal(p.loopScore, -75);
  assert.ok(Math.abs((p.gop ?? NaN) - -2) < 1e-12, 'gop = (-95 - -75) / 10');
  const [better] = withGop([{ phone: 'a', startFrame: 0, endFrame: 10, score: -90 }], loop);
  assert.equal(better.gop, 0, 'clamped to 0 when the forced phone beats the loop');
});
