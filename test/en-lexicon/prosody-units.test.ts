import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  isLegalOnset, isLinkable, letterNames, linkingBetween, loadEnglishLexicon, lookupText, parseArpabet,
  primaryStressIndex, syllabify, toArpabet,
} from '../../src/en/lexicon/index.js';
import { analyzeEnglishText } from '../../src/en/text/index.js';

const lexicon = await loadEnglishLexicon();
const p = (a: string) => parseArpabet(a, 'cmudict');

test('letter names for the alpha kind', () => {
  assert.deepEqual(letterNames('A').map(toArpabet), ['EY1']);
  assert.deepEqual(letterNames('b').map(toArpabet), ['B IY1']);
  assert.deepEqual(letterNames('W')[0].phones.join(' '), 'D AH B AH L Y UW');
  assert.deepEqual(letterNames('h').map(toArpabet), ['EY1 CH', 'HH EY1 CH']);
  assert.deepEqual(letterNames('z', 'en-GB').map(toArpabet), ['Z IY1', 'Z EH1 D']);
  assert.throws(() => letterNames('ab'));
  const alpha = lookupText(lexicon, analyzeEnglishText('A B W', { kind: 'alpha' }));
  assert.deepEqual(alpha.map((e) => e.prons[0].phones.join(' ')), ['EY', 'B IY', 'D AH B AH L Y UW']);
  assert.ok(alpha.every((e) => e.prons.every((q) => q.source === 'letter') && !e.linkable));
});

test('syllables follow the maximum onset principle', () => {
  const show = (a: string) => syllabify(p(a)).map((s) => s.phones.join(' ')).join(' . ');
  assert.equal(show('EH2 K S T R AH0 AO1 R D AH0 N EH2 R IY0'), 'EH K . S T R AH . AO R . D AH . N EH . R IY');
  assert.equal(show('AH0 P L AY1'), 'AH . P L AY');
  assert.equal(show('K AE1 M P IY0'), 'K AE M . P IY');
  assert.equal(show('S IH1 NG ER0'), 'S IH NG . ER');
  assert.equal(show('HH AH1 NG G R IY0'), 'HH AH NG . G R IY');
  assert.ok(isLegalOnset(['S', 'T', 'R']) && !isLegalOnset(['NG']) && !isLegalOnset(['T', 'L']));
  const record = syllabify(p('R EH1 K ER0 D'));
  assert.deepEqual(record.map((s) => [s.start, s.nucleus, s.stress]), [[0, 1, 1], [2, 3, 0]]);
});

test('stress of "record" noun and verb and of "photograph" / "photography"', () => {
  const idx = lexicon.lookupWord('record').map(primaryStressIndex);
  assert.ok(idx.includes(0) && idx.includes(1));
  assert.deepEqual(lexicon.lookupWord('photograph')[0].stress, [1, 0, 2]);
  assert.deepEqual(lexicon.lookupWord('photography')[0].stress, [0, 1, 0, 0]);
  assert.equal(primaryStressIndex(p('AH0')), -1);
});

test('linking positions between words', () => {
  assert.deepEqual(linkingBetween(p('AE1 N'), p('AE1 P AH0 L')), { type: 'linking_CV' });
  assert.deepEqual(linkingBetween(p('G OW1'), p('AA1 N')), { type: 'linking_VV', glide: 'W' });
  assert.deepEqual(linkingBetween(p('S IY1'), p('IH1 T')), { type: 'linking_VV', glide: 'Y' });
  assert.deepEqual(linkingBetween(p('F AA1 R'), p('AH0 W EY1'), 'far'), { type: 'linking_r' });
  assert.deepEqual(linkingBetween(p('B IH1 G'), p('G EY1 M')), { type: 'gemination' });
  assert.equal(linkingBetween(p('B IH1 G'), p('D AO1 G')), null);
  assert.equal(isLinkable([], [p('AA1 N')]), false);
});

test('batch look-up of a text: numbers, function words, OOV and linkable flags', () => {
  const text = analyzeEnglishText('Pick it up in 1990, kouyu of an apple.', { kind: 'connected' });
  const entries = lookupText(lexicon, text);
  assert.deepEqual(entries.map((e) => e.word.text), ['Pick', 'it', 'up', 'in', '1990', 'kouyu', 'of', 'an', 'apple']);
  // in/1990: N+N gemination; 1990 ends a clause (comma); kouyu/of: UW→AH with a W glide.
  assert.deepEqual(entries.map((e) => e.linkable), [true, true, true, true, false, true, true, true, false]);
  assert.equal(toArpabet(entries[4].prons[0]), 'N AY1 N T IY1 N N AY1 N T IY0');
  assert.deepEqual(entries.map((e) => e.oov), [false, false, false, false, false, true, false, false, false]);
  assert.ok(entries[6].functionWord && entries[6].prons.some((q) => q.source === 'weak'));
  const word = lookupText(lexicon, analyzeEnglishText('of', { kind: 'word' }));
  assert.ok(word[0].prons.every((q) => q.source !== 'weak'), 'no weak forms for the word kind');
});

test('an unknown word in capitals is accepted spelt out as letters, and as a word', () => {
  const [entry] = lookupText(lexicon, analyzeEnglishText('KXQ', { kind: 'word' }));
  assert.equal(entry.oov, true);
  assert.equal(toArpabet(entry.prons[0]), 'K EY1 EH1 K S K Y UW1');
  assert.ok(entry.prons.some((q) => q.source === 'g2p'));
  const [known] = lookupText(lexicon, analyzeEnglishText('NASA', { kind: 'word' }));
  assert.ok(known.prons.every((q) => q.source === 'cmudict'), 'dictionary acronyms read as the dictionary says');
});

test("a number's other readings are accepted pronunciations, each marked with the words it reads", () => {
  const [entry] = lookupText(lexicon, analyzeEnglishText('407', { kind: 'word' }));
  assert.equal(toArpabet(entry.prons[0]), 'F AO1 R HH AH1 N D R AH0 D S EH1 V AH0 N');
  assert.equal(entry.prons[0].reading, undefined, 'the first reading is the word\'s own spoken form');
  const ohSeven = entry.prons.find((q) => toArpabet(q) === 'F AO1 R OW1 S EH1 V AH0 N');
  assert.deepEqual(ohSeven?.reading, ['four', 'oh', 'seven']);
  assert.ok(entry.prons.some((q) => q.reading?.join(' ') === 'four hundred and seven'));
  assert.ok(entry.prons.some((q) => q.reading?.join(' ') === 'four zero seven'));
  const keys = entry.prons.map(toArpabet);
  assert.equal(new Set(keys).size, keys.length, 'no pronunciation twice');
});
