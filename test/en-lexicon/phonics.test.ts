import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignPhonics, loadEnglishLexicon } from '../../src/en/lexicon/index.js';

const lexicon = await loadEnglishLexicon();

function blocks(word: string): string {
  const pron = lexicon.lookupWord(word)[0];
  const aligned = alignPhonics(word, pron.phones);
  assert.equal(aligned.map((b) => b.spell).join(''), word, 'spells concatenate to the word');
  assert.deepEqual(aligned.flatMap((b) => b.phones), pron.phones, 'phones are all covered in order');
  return aligned.map((b) => `${b.spell}/${b.phones.join(' ') || '-'}`).join(' ');
}

test('phonics blocks for common spellings', () => {
  const expected: Record<string, string> = {
    thought: 'th/TH ough/AO t/T',
    phone: 'ph/F o/OW n/N e/-',
    night: 'n/N igh/AY t/T',
    knight: 'kn/N igh/AY t/T',
    rain: 'r/R ai/EY n/N',
    school: 's/S ch/K oo/UW l/L',
    bridge: 'b/B r/R i/IH dge/JH',
    sheep: 'sh/SH ee/IY p/P',
    write: 'wr/R i/AY t/T e/-',
    queen: 'qu/K W ee/IY n/N',
    box: 'b/B o/AA x/K S',
    car: 'c/K ar/AA R',
    laugh: 'l/L augh/AE F',
    butter: 'b/B u/AH tt/T er/ER',
    station: 's/S t/T a/EY ti/SH o/AH n/N',
  };
  for (const [word, want] of Object.entries(expected)) assert.equal(blocks(word), want, word);
});

test('phoneStart indexes the pronunciation', () => {
  const aligned = alignPhonics('thought', ['TH', 'AO', 'T']);
  assert.deepEqual(aligned.map((b) => b.phoneStart), [0, 1, 2]);
});

test('unusual spellings still align completely; case and apostrophes are kept', () => {
  blocks('colonel');
  blocks('yacht');
  blocks('xylophone');
  const aligned = alignPhonics("Don't", ['D', 'OW', 'N', 'T']);
  assert.equal(aligned.map((b) => b.spell).join(''), "Don't");
  const odd = alignPhonics('w', ['D', 'AH', 'B', 'AH', 'L', 'Y', 'UW']);
  assert.deepEqual(odd, [{ spell: 'w', phones: ['D', 'AH', 'B', 'AH', 'L', 'Y', 'UW'], phoneStart: 0 }]);
});
