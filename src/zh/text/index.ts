/** The Mandarin text layer's public surface. */
export { analyzeMandarinText, type AnalyzeOptions } from './analyze.js';
export { normalizeText, toHalfWidth, CHAR_TYPE, type TextToken, type NormalizedText } from './normalize.js';
export { readCardinal, readDecimal, readDigits } from './numerals.js';
export { contextPinyin, loadWordSegmenter, parseRefPinyin, type Reading } from './pinyin.js';
export { applySandhi, type SandhiSyllable } from './sandhi.js';
export { splitClauses, type TextSpan, type Sentence, type PauseKind } from './clauses.js';
export { detectGenre, GENRES, type Genre } from './genre.js';
export { syllablePhones, phonesToSyllable, modelSyllables, initialFinalPhones, MODEL_PHONES } from './phones.js';
export { confusableSyllables, type Confusable, type ConfusionKind } from './confusable.js';
export { ALL_SYLLABLES, isSyllable, splitSyllable, composeSyllable, toneMarked, asciiSyllable } from './syllables.js';
export { isMandarinChar, type MandarinText, type MandarinChar, type TextTokenInfo, type NormalizedSyllable, type WordPart } from './types.js';
