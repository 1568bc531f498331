import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isBathWord, loadEnglishLexicon, nonRhoticVariants, parseArpabet, toArpabet } from '../../src/en/lexicon/index.js';

const lexicon = await loadEnglishLexicon();
const gb = (w: string): string[] => lexicon.lookupWord(w, { dialect: 'en-GB' }).map(toArpabet);

test('en-GB keeps the American forms first and adds British ones', () => {
  assert.deepEqual(gb('car'), ['K AA1 R', 'K AA1']);
  assert.deepEqual(gb('bath'), ['B AE1 TH', 'B AA1 TH']);
  assert.deepEqual(gb('hot'), ['HH AA1 T', 'HH AO1 T']);
  assert.deepEqual(lexicon.lookupWord('car', { dialect: 'en-US' }).map(toArpabet), ['K AA1 R']);
  const added = lexicon.lookupWord('bath', { dialect: 'en-GB' })[1];
  assert.equal(added.source, 'en-GB');
  assert.equal(added.variant, 'bath');
});

test('non-rhotic: R dropped after a vowel unless a vowel follows; ER becomes AH', () => {
  assert.ok(gb('nurse').includes('N AH1 S'));
  assert.ok(gb('teacher').includes('T IY1 CH AH0'));
  assert.ok(gb('here').includes('HH IY1 AH0'), 'centring diphthong of NEAR');
  assert.ok(gb('care').includes('K EH1'), 'long SQUARE vowel');
  assert.deepEqual(gb('very'), ['V EH1 R IY0'], 'R before a vowel stays');
  assert.deepEqual(nonRhoticVariants(parseArpabet('B EY1 K ER0 IY0', 'cmudict')).map(toArpabet), ['B EY1 K AH0 R IY0']);
});

test('BATH is a word list with inflections, not a sound rule', () => {
  assert.ok(isBathWord('class') && isBathWord('classes') && isBathWord('dancing') && isBathWord('asked'));
  assert.ok(!isBathWord('cat') && !isBathWord('math') && !isBathWord('gas'));
  assert.ok(gb('after').includes('AA1 F T AH0'), 'BATH and lettER compose');
  assert.ok(!gb('cat').some((p) => p.includes('AA')));
});

test('LOT: AA spelt o or wa becomes AO; AA spelt a elsewhere stays', () => {
  assert.ok(gb('doctor').includes('D AO1 K T AH0'));
  assert.ok(gb('watch').includes('W AO1 CH'));
  assert.ok(!gb('father').some((p) => p.includes('AO')));
  assert.ok(!gb('spa').some((p) => p.includes('AO')));
});

test('letter Z is also zed in en-GB', () => {
  const us = lexicon.lookupWord('z.', { dialect: 'en-US' }).map(toArpabet);
  const uk = lexicon.lookupWord('z.', { dialect: 'en-GB' }).map(toArpabet);
  assert.deepEqual(us, ['Z IY1']);
  assert.deepEqual(uk, ['Z IY1', 'Z EH1 D']);
  assert.ok(lexicon.lookupWord('r.', { dialect: 'en-GB' }).map(toArpabet).includes('AA1'));
});

test('British weak forms are non-rhotic too', () => {
  const forms = lexicon.lookupWord('for', { dialect: 'en-GB', weakForms: true });
  assert.ok(forms.some((p) => toArpabet(p) === 'F AH0'));
  assert.ok(forms.some((p) => toArpabet(p) === 'F ER0'));
  const are = lexicon.lookupWord('are', { dialect: 'en-GB', weakForms: true }).map(toArpabet);
  assert.ok(are.includes('AH0'), `weak "are" without R in ${are}`);
});
