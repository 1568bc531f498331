export { analyzeEnglishText, MAX_REFERENCE_CHARS, type AnalyzeOptions } from './analyze.js';
export { cardinalWords, ordinalWords, yearWords, numberToWords, numberReadings } from './numbers.js';
export { foldWord } from './scan.js';
export type * from './types.js';
