export { loadEnglishLexicon, EnglishLexicon, joinPronunciations, type EnglishDialect, type LookupOptions, type WordPronunciations } from './lexicon.js';
export { lookupText, type WordEntry, type TextLookupOptions } from './text-lookup.js';
export { loadCmuDictionary, CmuDictionary } from './cmudict.js';
export { createLetterToSound, createWasmLetterToSound, createCliLetterToSound, CachedLetterToSound, resolveFlaps, type LetterToSound } from './g2p.js';
export { ipaToArpabet, type IpaConversion } from './ipa.js';
export { britishVariants, nonRhoticVariants, bathVariant, lotVariant, isBathWord } from './british.js';
export { alignPhonics, type PhonicsBlock } from './phonics.js';
export { letterNames, isLetter } from './letters.js';
export { weakForms, isFunctionWord } from './weak-forms.js';
export { syllabify, stressPattern, primaryStressIndex, isLegalOnset, type Syllable } from './syllables.js';
export { linkingBetween, isLinkable, type Linking, type LinkType } from './linking.js';
export {
  EN_PHONES, EN_VOWELS, EN_CONSONANTS, isVowel, isPhone, parseArpabet, toArpabet, pronKey, addUnique,
  type Pronunciation, type PronSource, type Stress,
} from './phones.js';
