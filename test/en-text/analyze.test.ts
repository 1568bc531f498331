import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeEnglishText, MAX_REFERENCE_CHARS } from '../../src/en/text/index.js';
import { ApiError } from '../../src/errors.js';

function isValidation(err: unknown): boolean {
  return err instanceof ApiError && err.code === 40001 && err.status === 400;
}

test('words keep their original offsets; punctuation is charType 1 and not a word', () => {
  const text = 'Hello, world! How are you?';
  const a = analyzeEnglishText(text);
  assert.deepEqual(a.words.map((w) => w.text), ['Hello', 'world', 'How', 'are', 'you']);
  for (const w of a.words) assert.equal(text.slice(w.beginIndex, w.endIndex), w.text);
  const punct = a.tokens.filter((t) => t.charType === 1).map((t) => t.text);
  assert.deepEqual(punct, [',', '!', '?']);
  assert.equal(a.tokens.length, 8);
  assert.equal(a.words[0].punctuationAfter, ',');
});

test('sentences and clauses carry word ranges and offsets', () => {
  const text = 'I came, I saw; I won. Did you? Yes';
  const a = analyzeEnglishText(text, { kind: 'passage' });
  assert.deepEqual(a.sentences.map((s) => s.text), ['I came, I saw; I won.', 'Did you?', 'Yes']);
  assert.deepEqual(a.sentences.map((s) => [s.firstWord, s.endWord]), [[0, 6], [6, 8], [8, 9]]);
  assert.deepEqual(a.sentences.map((s) => s.terminator), ['.', '?', '']);
  assert.deepEqual(a.clauses.map((c) => text.slice(c.beginIndex, c.endIndex)), ['I came', 'I saw', 'I won', 'Did you', 'Yes']);
  assert.deepEqual(a.sentences[0].clauseIndices, [0, 1, 2]);
  assert.deepEqual(a.words.map((w) => w.clauseIndex), [0, 0, 1, 1, 2, 2, 3, 3, 4]);
  assert.equal(a.words[7].sentenceIndex, 1);
});

test('abbreviations with a full stop do not end the sentence', () => {
  const a = analyzeEnglishText('Mr. Brown met Dr. Green at 5 p.m. today.');
  assert.equal(a.sentences.length, 1);
  assert.deepEqual(a.words[0].spoken, ['mister']);
  assert.deepEqual(a.words[3].spoken, ['doctor']);
  assert.equal(a.words[3].text, 'Dr.');
  assert.deepEqual(a.words.map((w) => w.text), ['Mr.', 'Brown', 'met', 'Dr.', 'Green', 'at', '5', 'p.m.', 'today']);
  const no = analyzeEnglishText('Room No. 5 said no. Then quiet.');
  assert.deepEqual(no.words[1].spoken, ['number']);
  assert.deepEqual(no.words[4].spoken, ['no'], '"no." before a word is the word and ends the sentence');
  assert.equal(no.sentences.length, 2);
});

test('numbers are read as words and keep the mapping to the written token', () => {
  const cases: Array<[string, string]> = [
    ['42', 'forty two'],
    ['1,250', 'one thousand two hundred fifty'],
    ['1st', 'first'],
    ['22nd', 'twenty second'],
    ['103rd', 'one hundred third'],
    ['1990', 'nineteen ninety'],
    ['1905', 'nineteen oh five'],
    ['2005', 'two thousand five'],
    ['2019', 'twenty nineteen'],
    ['2000', 'two thousand'],
    ['1990s', 'nineteen nineties'],
    ['3.14', 'three point one four'],
    ['10:30', 'ten thirty'],
    ['7:05', 'seven oh five'],
    ['9:00', "nine o'clock"],
    ['$5', 'five dollars'],
    ['$2.50', 'two dollars fifty cents'],
    ['50%', 'fifty percent'],
  ];
  for (const [written, said] of cases) {
    const text = `It was ${written} then`;
    const a = analyzeEnglishText(text);
    const w = a.words[2];
    assert.equal(w.text, written, written);
    assert.equal(w.form, 'number');
    assert.equal(w.spoken.join(' '), said, written);
    assert.equal(text.slice(w.beginIndex, w.endIndex), written);
  }
});

test('am/pm after a time are read as letters', () => {
  const a = analyzeEnglishText('Meet me at 10:30 pm');
  assert.deepEqual(a.words[4].spoken, ['p.m.']);
  assert.deepEqual(analyzeEnglishText('I am here').words[1].spoken, ['am']);
  const onTheHour = analyzeEnglishText('Meet me at 9:00 am').words[3];
  assert.deepEqual(onTheHour.spoken, ['nine'], 'on the hour before a.m. the time is read without o\'clock');
  assert.deepEqual(onTheHour.otherReadings, [['nine', "o'clock"]]);
});

test('abbreviations read more than one way accept each reading; address words and state codes too', () => {
  const readings = (text: string, i: number) => {
    const w = analyzeEnglishText(text).words[i];
    return [w.spoken, ...(w.otherReadings ?? [])].map((r) => r.join(' '));
  };
  assert.deepEqual(readings('Dr. Green lives on Elm St. now', 0), ['doctor', 'drive']);
  assert.deepEqual(readings('Dr. Green lives on Elm St. now', 5), ['saint', 'street']);
  assert.deepEqual(readings('11438 SE 184th Pl, Renton WA', 1), ['south east', 'southeast', 's. e.']);
  assert.deepEqual(readings('11438 SE 184th Pl, Renton WA', 3), ['place']);
  assert.deepEqual(readings('5 Park Ave', 2), ['avenue']);
  assert.deepEqual(readings('12 Oak Ct, Hartford CT', 2), ['court']);
  assert.deepEqual(readings('12 Oak Ct, Hartford CT', 4), ['ct', 'connecticut', 'c. t.']);
  assert.deepEqual(readings('11438 SE 184th Pl, Renton WA', 5), ['wa', 'washington', 'w. a.']);
  assert.deepEqual(readings('FLAT NO 204 SATSANG SOCIETY', 1), ['number', 'no']);
  assert.deepEqual(readings('I said no 5 times', 2), ['no'], 'a lower-case "no" stays the word');
  assert.deepEqual(readings('The se of it', 1), ['se'], 'compass points only in capitals');
  assert.deepEqual(readings('I live in Oregon', 2), ['in'], 'state codes only written in capitals');
  assert.deepEqual(readings('HE WAS IN A FIGHT OR SOMETHING', 2), ['in'], 'not in a text all in capitals');
});

test('fractions, degrees, units after a number, Roman numerals, "#1" and ranges are read as said', () => {
  const said = (text: string) => {
    const a = analyzeEnglishText(text);
    return a.words.map((w) => [w.spoken, ...(w.otherReadings ?? [])].map((r) => r.join(' ')).join(' | '));
  };
  assert.deepEqual(said('Add 1/2 cup'), ['add', 'one half | a half | one over two', 'cup']);
  assert.deepEqual(said('3/4 of it')[0], 'three quarters | three fourths | three over four');
  assert.deepEqual(said('2/3')[0], 'two thirds | two over three');
  assert.deepEqual(said('on 12/25/2020').slice(0, 3), ['on', 'twelve', 'twenty five'], 'a date is not a fraction');
  assert.deepEqual(said('on 1/2/3'), ['on', 'one', 'two', 'three'], 'nor its last two numbers');
  assert.deepEqual(said('It was 25°C'), ['it', 'was', 'twenty five', 'degrees celsius | degrees centigrade | degrees']);
  assert.deepEqual(said('77 °F')[1], 'degrees fahrenheit | degrees');
  assert.deepEqual(said('1° more')[1], 'degree');
  assert.deepEqual(said('Walk 5 km, carry 1 kg and 2GB'), ['walk', 'five', 'kilometers | k. m.', 'carry', 'one', 'kilogram | k. g.', 'and', 'two', 'gigabytes | g. b.']);
  assert.deepEqual(said('a km away'), ['a', 'km', 'away'], 'a unit only after a number');
  assert.deepEqual(said('$5m')[1], 'm', 'not metres after money');
  assert.deepEqual(said('World War II'), ['world', 'war', 'two | second | the second | i. i.']);
  assert.deepEqual(said('Henry VIII')[1], 'eight | eighth | the eighth | v. i. i. i.');
  assert.deepEqual(said('I went'), ['i', 'went'], 'a single letter is no Roman numeral');
  assert.deepEqual(said('a #1 hit'), ['a', 'number | hash', 'one', 'hit']);
  assert.deepEqual(said('ages 3–5'), ['ages', 'three', 'five | to five | through five'], 'a range: the dash read "to" or not at all');
  const range = analyzeEnglishText('From 1990-1995 it grew');
  assert.equal(range.words[1].punctuationAfter, '', 'the dash of a range is no break');
  assert.ok(range.words[2].otherReadings!.some((r) => r.join(' ') === 'to nineteen ninety five'));
  assert.equal(range.tokens.find((t) => t.text === '-')?.charType, 1, 'the dash stays a mark of the text');
  assert.equal(analyzeEnglishText('2 - 3').words[0].punctuationAfter, '-', 'a spaced dash is punctuation as before');
});

test('a number also carries the other readings people give it, the usual American one first', () => {
  const readings = (written: string) => {
    const w = analyzeEnglishText(`It was ${written} then`).words[2];
    return [w.spoken, ...(w.otherReadings ?? [])].map((r) => r.join(' '));
  };
  assert.deepEqual(readings('407'), ['four hundred seven', 'four hundred and seven', 'four oh seven', 'four zero seven']);
  assert.deepEqual(readings('42'), ['forty two']);
  assert.equal(analyzeEnglishText('It was 42 then').words[2].otherReadings, undefined);
  const year = readings('2019');
  assert.equal(year[0], 'twenty nineteen');
  for (const r of ['two thousand nineteen', 'two thousand and nineteen', 'two oh one nine']) assert.ok(year.includes(r), r);
  assert.ok(!year.some((r) => r.startsWith('a ')), 'no "a thousand" for a year');
  const comma = readings('1,250');
  for (const r of ['one thousand two hundred and fifty', 'a thousand two hundred fifty', 'twelve hundred fifty', 'twelve hundred and fifty']) assert.ok(comma.includes(r), r);
  assert.ok(!comma.some((r) => r.startsWith('one two')), 'a number written with a comma is not read digit by digit');
  assert.ok(readings('4812').includes('forty eight twelve'));
  assert.ok(readings('11438').includes('eleven four thirty eight') && readings('11438').includes('eleven four three eight'));
  assert.ok(readings('1200').includes('twelve hundred'));
  assert.ok(!readings('2000').includes('twenty hundred'));
  assert.ok(readings('411007').includes('four one one oh oh seven'));
  assert.ok(readings('007').includes('oh oh seven'));
  assert.ok(readings('007').includes('double oh seven'));
  assert.ok(readings('5511').includes('double five double one'));
  const phone = readings('8885112931');
  assert.equal(phone[0], 'eight eight eight five one one two nine three one', 'seven digits or more: digit by digit first');
  assert.ok(phone.includes('triple eight five double one two nine three one'));
  assert.deepEqual(readings('0.5'), ['zero point five', 'oh point five', 'point five']);
  assert.deepEqual(readings('$2.50'), ['two dollars fifty cents', 'two dollars and fifty cents', 'two fifty']);
  assert.ok(readings('£120').includes('a hundred and twenty pounds'));
  assert.deepEqual(readings('9:00'), ["nine o'clock", 'nine']);
  assert.deepEqual(readings('103rd'), ['one hundred third', 'one hundred and third', 'a hundred third', 'a hundred and third', 'one oh third']);
  assert.ok(readings('184th').includes('one eighty fourth'));
  assert.deepEqual(readings('2.5%'), ['two point five percent']);
  assert.deepEqual(readings('1990s'), ['nineteen nineties']);
});

test('contractions, possessives and hyphenated words stay one word, folded for look-up', () => {
  const a = analyzeEnglishText("Don't say it's the students' well-known Café rule; we’ll see");
  const byText = new Map(a.words.map((w) => [w.text, w]));
  assert.equal(byText.get("Don't")!.form, 'contraction');
  assert.deepEqual(byText.get("Don't")!.spoken, ["don't"]);
  assert.deepEqual(byText.get("it's")!.spoken, ["it's"]);
  assert.deepEqual(byText.get("students'")!.spoken, ["students'"]);
  assert.deepEqual(byText.get('we’ll')!.spoken, ["we'll"]);
  const hy = byText.get('well-known')!;
  assert.equal(hy.form, 'hyphenated');
  assert.deepEqual(hy.parts.map((p) => [p.part, p.beginIndex, p.endIndex]), [['well', hy.beginIndex, hy.beginIndex + 4], ['known', hy.beginIndex + 5, hy.endIndex]]);
  assert.deepEqual(byText.get('Café')!.spoken, ['cafe']);
});

test('alpha: space-separated letters, upper or lower case, each a unit', () => {
  const a = analyzeEnglishText('A B c, d', { kind: 'alpha' });
  assert.deepEqual(a.words.map((w) => w.text), ['A', 'B', 'c', 'd']);
  assert.deepEqual(a.words.map((w) => w.spoken[0]), ['a.', 'b.', 'c.', 'd.']);
  assert.ok(a.words.every((w) => w.form === 'letter'));
  assert.throws(() => analyzeEnglishText('A BC', { kind: 'alpha' }), (e) => isValidation(e) && /BC/.test((e as Error).message));
  assert.throws(() => analyzeEnglishText('A 7', { kind: 'alpha' }), isValidation);
});

test('text of only punctuation, empty text and text over the limit are rejected with 40001', () => {
  assert.throws(() => analyzeEnglishText('?!... ,;'), (e) => isValidation(e) && /no readable English words/.test((e as Error).message));
  assert.throws(() => analyzeEnglishText('   '), isValidation);
  assert.throws(() => analyzeEnglishText('你好。'), isValidation);
  assert.throws(() => analyzeEnglishText('a '.repeat(MAX_REFERENCE_CHARS / 2 + 1)), (e) => isValidation(e) && /1000/.test((e as Error).message));
  assert.equal(analyzeEnglishText('ab '.repeat(333) + 'a').words.length, 334);
});

test('non-Latin symbols are unread tokens (charType 2), not words', () => {
  const a = analyzeEnglishText('Hello 世界 friend');
  assert.deepEqual(a.words.map((w) => w.text), ['Hello', 'friend']);
  assert.deepEqual(a.tokens.filter((t) => t.charType === 2).map((t) => t.text), ['世', '界']);
});

test('closing quotes and repeated stops stay with the sentence they end', () => {
  const text = 'He said "no." Then he left... Why?!';
  const a = analyzeEnglishText(text, { kind: 'passage' });
  assert.deepEqual(a.sentences.map((s) => s.text), ['He said "no."', 'Then he left...', 'Why?!']);
  assert.equal(a.sentences[0].endIndex, text.indexOf('Then') - 1);
  assert.equal(a.words[2].punctuationAfter, '."');
});
