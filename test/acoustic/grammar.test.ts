import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileGrammar, compilePhoneSequence, parseSlots, pronPhones, pronWord } from '../../src/acoustic/sphinx/grammar.js';
import { buildUnits, unitPhones } from '../../src/acoustic/sphinx/units.js';
import { loopScoreOver, withGop } from '../../src/acoustic/gop.js';
import { WORD_BREAK, type GrammarSpec } from '../../src/acoustic/types.js';

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

test('a pronunciation of several spoken words is a sequence of words, one unit with the silence between them', () => {
  const g: GrammarSpec = {
    slots: [
      { alternatives: [{ label: '0', prons: [['F', 'AO', 'R', WORD_BREAK, 'OW', WORD_BREAK, 'S', 'EH', 'V', 'AH', 'N'], ['F', 'AO', 'R', 'OW', 'S', 'EH', 'V', 'AH', 'N']] }], optional: true },
      { alternatives: [{ label: '1', prons: [['R', 'OW', 'D']] }] },
    ],
  };
  assert.match(compileGrammar(g, []).jsgf, /public <utt> = \[ \( p_F_AO_R p_OW p_S_EH_V_AH_N \) \| p_F_AO_R_OW_S_EH_V_AH_N \] \( p_R_OW_D \);/);
  const words = ['p_F_AO_R', 'p_OW', 'p_S_EH_V_AH_N', 'p_R_OW_D'];
  const roles = parseSlots(words, g)!;
  assert.deepEqual(roles, [{ kind: 'slot', slot: 0, alt: 0, pron: 0, words: 3 }, { kind: 'slot', slot: 1, alt: 0, pron: 0 }]);
  assert.deepEqual(parseSlots(['p_F_AO_R_OW_S_EH_V_AH_N', 'p_R_OW_D'], g)?.[0], { kind: 'slot', slot: 0, alt: 0, pron: 1 });
  assert.equal(parseSlots(['p_F_AO_R', 'p_OW', 'p_R_OW_D'], g), null, 'part of a reading is no reading');
  const seg = (word: string, startFrame: number, endFrame: number) => ({ word, startFrame, endFrame, ascr: -(endFrame - startFrame), lscr: 0 });
  const units = buildUnits([seg('<sil>', 0, 10), seg('p_F_AO_R', 10, 30), seg('<sil>', 30, 60), seg('p_OW', 60, 70), seg('p_S_EH_V_AH_N', 70, 100), seg('p_R_OW_D', 100, 130)], roles, g, 5);
  assert.deepEqual(units.map((u) => [u.slot, u.startFrame, u.endFrame]), [[-1, 5, 15], [0, 15, 105], [1, 105, 135]]);
  assert.deepEqual(unitPhones(units[1], g), ['F', 'AO', 'R', 'OW', 'S', 'EH', 'V', 'AH', 'N']);
  assert.deepEqual(pronPhones(g.slots[0].alternatives[0].prons[0]), unitPhones(units[1], g));
});
