/**
 * Pinyin spellings for the response: toneless (`pinyin`), numeric (`rawpinyin`, v for ü as
 * legacy clients expect) and tone-marked (`symbolpinyin`, placement rule of the Scheme for the
 * Chinese Phonetic Alphabet: a or e takes the mark, in ou the o, otherwise the last vowel).
 */
const MARKS: Record<string, string[]> = {
  a: ['ā', 'á', 'ǎ', 'à'],
  e: ['ē', 'é', 'ě', 'è'],
  i: ['ī', 'í', 'ǐ', 'ì'],
  o: ['ō', 'ó', 'ǒ', 'ò'],
  u: ['ū', 'ú', 'ǔ', 'ù'],
  ü: ['ǖ', 'ǘ', 'ǚ', 'ǜ'],
};

export function plainPinyin(syllable: string): string {
  return syllable.replace(/v/g, 'ü');
}

export function numericPinyin(syllable: string, tone: number): string {
  return `${syllable}${tone === 5 ? 5 : tone}`;
}

export function markedPinyin(syllable: string, tone: number): string {
  const s = plainPinyin(syllable);
  if (tone < 1 || tone > 4) return s;
  let at = s.search(/[ae]/);
  if (at < 0) at = s.indexOf('ou');
  if (at < 0) {
    for (let i = s.length - 1; i >= 0; i--) {
      if ('iouü'.includes(s[i])) {
        at = i;
        break;
      }
    }
  }
  if (at < 0) return s;
  return s.slice(0, at) + MARKS[s[at]][tone - 1] + s.slice(at + 1);
}

/** Nasal finals, whose front/back contrast (an/ang, en/eng, in/ing) `nasalsScore` follows. */
export function isNasalFinal(final: string): boolean {
  return /n$|ng$/.test(final);
}
