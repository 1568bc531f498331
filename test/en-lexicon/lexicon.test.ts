import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createCliLetterToSound, EN_PHONES, ipaToArpabet, loadEnglishLexicon, toArpabet, type Pronunciation,
} from '../../src/en/lexicon/index.js';

const lexicon = await loadEnglishLexicon();
const arpa = (ps: Pronunciation[]): string[] => ps.map(toArpabet);

test('every dictionary alternative is kept, with stress digits', () => {
  assert.deepEqual(arpa(lexicon.lookupWord('either')), ['IY1 DH ER0', 'AY1 DH ER0']);
  assert.deepEqual(arpa(lexicon.lookupWord('tomato')), ['T AH0 M EY1 T OW2', 'T AH0 M AA1 T OW2']);
  assert.deepEqual(arpa(lexicon.lookupWord('read')).sort(), ['R EH1 D', 'R IY1 D']);
  assert.ok(lexicon.lookupWord('either').every((p) => p.source === 'cmudict'));
});

test('"record" keeps the noun (stress 1 0) and verb (stress 0 1) patterns', () => {
  const prons = lexicon.lookupWord('Record');
  const patterns = prons.map((p) => p.stress.join(''));
  assert.ok(patterns.includes('10'), `noun pattern missing in ${patterns}`);
  assert.ok(patterns.includes('01'), `verb pattern missing in ${patterns}`);
  assert.ok(arpa(prons).includes('R EH1 K ER0 D'));
});

test('phones are model symbols and stress has one digit per vowel', () => {
  const vowels = new Set(['AA', 'AE', 'AH', 'AO', 'AW', 'AY', 'EH', 'ER', 'EY', 'IH', 'IY', 'OW', 'OY', 'UH', 'UW']);
  for (const w of ['pronunciation', 'assessment', "don't", 'rhythm', 'strengths']) {
    for (const p of lexicon.lookupWord(w, { dialect: 'en-GB', weakForms: true })) {
      assert.ok(p.phones.every((ph) => EN_PHONES.includes(ph) && ph !== 'SIL'), `${w}: ${p.phones}`);
      assert.equal(p.stress.length, p.phones.filter((ph) => vowels.has(ph)).length, w);
    }
  }
});

test('out-of-vocabulary words get letter-to-sound pronunciations, never nothing', () => {
  const kouyu = lexicon.describeWord('kouyu');
  assert.equal(kouyu.oov, true);
  assert.equal(kouyu.prons.length, 1);
  assert.equal(kouyu.prons[0].source, 'g2p');
  assert.equal(kouyu.prons[0].phones.join(' '), 'K UW Y UW');
  assert.deepEqual(kouyu.unmapped, []);
  const blorp = lexicon.lookupWord('blorptastic')[0];
  // Plausible: starts B L, ends T IH K, one primary stress, 4 syllables.
  assert.deepEqual(blorp.phones.slice(0, 2), ['B', 'L']);
  assert.deepEqual(blorp.phones.slice(-3), ['T', 'IH', 'K']);
  assert.equal(blorp.stress.filter((s) => s === 1).length, 1);
  assert.equal(blorp.stress.length, 3);
});

test('the Debian espeak-ng binary gives the same letter-to-sound phones as the in-process one', () => {
  const cli = createCliLetterToSound();
  for (const w of ['kouyu', 'zhangwei', 'glorpify']) {
    const inProcess = lexicon.lookupWord(w)[0].phones.join(' ');
    assert.equal(ipaToArpabet(cli.ipa(w)).pron.phones.join(' '), inProcess, w);
  }
});

test('IPA → ARPAbet carries stress marks to the next vowel and maps espeak-ng symbols', () => {
  assert.equal(toArpabet(ipaToArpabet('ɹˈɛkɚd').pron), 'R EH1 K ER0 D');
  assert.equal(toArpabet(ipaToArpabet('zˈaɪləfˌoʊn').pron), 'Z AY1 L AH0 F OW2 N');
  assert.equal(toArpabet(ipaToArpabet('bˈʌʔn̩').pron), 'B AH1 T AH0 N');
  assert.equal(toArpabet(ipaToArpabet('dʒˈʌdʒ').pron), 'JH AH1 JH');
  assert.deepEqual(ipaToArpabet('kˈuːɣ').unmapped, ['ɣ']);
});

test('composed words: hyphenated parts and possessives', () => {
  assert.ok(arpa(lexicon.lookupWord('sky-blue')).includes('S K AY1 B L UW1'));
  const kouyus = lexicon.describeWord("kouyu's");
  assert.deepEqual(arpa(kouyus.prons), ['K UW1 Y UW0 Z']);
  assert.equal(kouyus.oov, true);
  assert.equal(arpa(lexicon.lookupWord("teacher's"))[0], 'T IY1 CH ER0 Z');
  assert.ok(arpa(lexicon.lookupWord("boss's")).every((a) => a.endsWith(' S IH0 Z')));
  assert.equal(arpa(lexicon.lookupWord("cat's"))[0], 'K AE1 T S');
  assert.equal(lexicon.describeWord('sky-blue').oov, false);
});

test('joined spoken words (numbers) concatenate phones and stress', () => {
  const prons = lexicon.lookupSpoken(['nineteen', 'ninety']);
  assert.equal(toArpabet(prons[0]), 'N AY1 N T IY1 N N AY1 N T IY0');
  assert.ok(prons.length <= 8);
});

test('weak forms of function words are added only when asked', () => {
  assert.ok(!arpa(lexicon.lookupWord('of')).includes('AH0 V'));
  const connected = lexicon.lookupWord('of', { weakForms: true });
  assert.ok(arpa(connected).includes('AH1 V'));
  assert.ok(arpa(connected).includes('AH0 V'));
  assert.equal(connected[0].source, 'cmudict');
  assert.ok(arpa(lexicon.lookupWord('can', { weakForms: true })).includes('K AH0 N'));
  assert.equal(lexicon.describeWord('the').functionWord, true);
  assert.equal(lexicon.describeWord('table').functionWord, false);
});

test('letter-to-sound: a flap spelt d becomes D, spelt t stays T', () => {
  assert.equal(lexicon.lookupWord('blidder')[0].phones.join(' '), 'B L IH D ER');
  assert.equal(lexicon.lookupWord('blitter')[0].phones.join(' '), 'B L IH T ER');
});
