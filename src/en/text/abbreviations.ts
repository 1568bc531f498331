/**
 * Abbreviations written with a full stop that is not a sentence end, and what is said.
 * "St." is read "saint" (before a name is its commonest use in read texts).
 */
export const ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = {
  mr: ['mister'], mrs: ['missus'], ms: ['miz'], dr: ['doctor'], prof: ['professor'],
  st: ['saint'], jr: ['junior'], sr: ['senior'], vs: ['versus'], etc: ['et', 'cetera'],
  mt: ['mount'], no: ['number'], 'e.g': ['for', 'example'], 'i.e': ['that', 'is'],
  'a.m': ['a.m.'], 'p.m': ['p.m.'], 'u.s': ['u.', 's.'], 'u.k': ['u.', 'k.'],
};

/** "am"/"pm" written without stops right after a time ("10:30 pm"). */
export const TIME_SUFFIXES: Readonly<Record<string, string>> = { am: 'a.m.', pm: 'p.m.' };
