/**
 * The Mandarin syllable inventory and pinyin spelling.
 *
 * Toneless syllables are written in ASCII with `v` for ü after n/l (lv, nve), the usual
 * numeric-pinyin input convention; after j/q/x/y the ü is spelled u (ju, yue), as in pinyin.
 * Internally a syllable splits into an initial ('' for none) and a canonical final in which
 * y/w spellings are undone (yi → i, you → iou, wu → u, wei → uei, yu → v, ju → j + v,
 * zhi → zh + -i).
 */

/** Initials in the order of the standard pinyin table. */
export const INITIALS = ['b', 'p', 'm', 'f', 'd', 't', 'n', 'l', 'g', 'k', 'h', 'j', 'q', 'x', 'zh', 'ch', 'sh', 'r', 'z', 'c', 's'] as const;

/**
 * Which initials each canonical final combines with ('' = no initial). Written from the
 * standard pinyin table (Hanyu Pinyin scheme, 1958), rare interjection syllables aside.
 */
const COMBINATIONS: Record<string, string> = {
  a: ' b p m f d t n l g k h zh ch sh z c s',
  o: ' b p m f l',
  e: ' m d t n l g k h zh ch sh r z c s',
  ai: ' b p m d t n l g k h zh ch sh z c s',
  ei: ' b p m f d n l g k h zh sh z',
  ao: ' b p m d t n l g k h zh ch sh r z c s',
  ou: ' p m f d t n l g k h zh ch sh r z c s',
  an: ' b p m f d t n l g k h zh ch sh r z c s',
  en: ' b p m f d n g k h zh ch sh r z c s',
  ang: ' b p m f d t n l g k h zh ch sh r z c s',
  eng: ' b p m f d t n l g k h zh ch sh r z c s',
  er: '',
  ong: 'd t n l g k h zh ch r z c s',
  '-i': 'zh ch sh r z c s',
  i: ' b p m d t n l j q x',
  ia: ' d l j q x',
  ie: ' b p m d t n l j q x',
  iao: ' b p m d t n l j q x',
  iou: ' m d n l j q x',
  ian: ' b p m d t n l j q x',
  in: ' b p m n l j q x',
  iang: ' n l j q x',
  ing: ' b p m d t n l j q x',
  iong: ' j q x',
  u: ' b p m f d t n l g k h zh ch sh r z c s',
  ua: ' g k h zh ch sh r',
  uo: ' d t n l g k h zh ch sh r z c s',
  uai: ' g k h zh ch sh',
  uei: ' d t g k h zh ch sh r z c s',
  uan: ' d t n l g k h zh ch sh r z c s',
  uen: ' d t l g k h zh ch sh r z c s',
  uang: ' g k h zh ch sh',
  ueng: '',
  v: ' n l j q x',
  ve: ' n l j q x',
  van: ' j q x',
  vn: ' j q x',
};

/** Syllabic nasals and interjections that pinyin-pro can produce (嗯 n/ng, 呣 m, 噷 hm, 哼 hng). */
const EXTRA_SYLLABLES = ['m', 'n', 'ng', 'hm', 'hng', 'yo'];

export interface SyllableParts {
  initial: string;
  /** Canonical final (see module comment); '' for the syllabic nasals m, n, ng, hm. */
  final: string;
}

/** Spells initial + canonical final as a toneless pinyin syllable. */
export function composeSyllable(initial: string, final: string): string {
  if (final === '-i') return initial + 'i';
  if (initial === '') {
    if (final === 'i' || final === 'in' || final === 'ing') return 'y' + final;
    if (final.startsWith('i')) return 'y' + (final === 'iou' ? 'ou' : final.slice(1));
    if (final === 'u') return 'wu';
    if (final.startsWith('u')) return 'w' + final.slice(1).replace(/^ei$/, 'ei');
    if (final.startsWith('v')) return 'yu' + final.slice(1);
    return final;
  }
  if ('jqx'.includes(initial) && final.startsWith('v')) return initial + 'u' + final.slice(1);
  if (final === 'iou') return initial + 'iu';
  if (final === 'uei') return initial + 'ui';
  if (final === 'uen') return initial + 'un';
  return initial + final;
}

const INVENTORY = new Map<string, SyllableParts>();
for (const [final, list] of Object.entries(COMBINATIONS)) {
  for (const initial of list.split(' ')) INVENTORY.set(composeSyllable(initial, final), { initial, final });
}
INVENTORY.set('er', { initial: '', final: 'er' });
INVENTORY.set('weng', { initial: '', final: 'ueng' });
for (const s of EXTRA_SYLLABLES) if (!INVENTORY.has(s)) INVENTORY.set(s, s === 'yo' ? { initial: '', final: 'io' } : { initial: s, final: '' });

/** All toneless syllables, sorted. */
export const ALL_SYLLABLES: readonly string[] = [...INVENTORY.keys()].sort();

export function isSyllable(toneless: string): boolean {
  return INVENTORY.has(toneless);
}

/** Initial and canonical final of a toneless syllable, or null if it is not Mandarin. */
export function splitSyllable(toneless: string): SyllableParts | null {
  return INVENTORY.get(toneless) ?? null;
}

/**
 * Normalises the spellings of ü that people type (ü, u:, v; also uppercase) to the ASCII
 * form used here, and 'lue'/'nue' (common misspelling of lüe/nüe) to lve/nve.
 */
export function asciiSyllable(s: string): string {
  const t = s.toLowerCase().replace(/u:/g, 'v').replace(/ü/g, 'v');
  return t.replace(/^([nl])ue$/, '$1ve');
}

const MARKS: Record<string, string[]> = {
  a: ['ā', 'á', 'ǎ', 'à'],
  e: ['ē', 'é', 'ě', 'è'],
  i: ['ī', 'í', 'ǐ', 'ì'],
  o: ['ō', 'ó', 'ǒ', 'ò'],
  u: ['ū', 'ú', 'ǔ', 'ù'],
  ü: ['ǖ', 'ǘ', 'ǚ', 'ǜ'],
  m: ['m̄', 'ḿ', 'm̌', 'm̀'],
  n: ['n̄', 'ń', 'ň', 'ǹ'],
};

/**
 * Tone-mark spelling (e.g. lv4 → lǜ). The mark goes on a or e if present, on the o of ou,
 * otherwise on the last vowel (so iu → iú, ui → uí) — the standard placement rule. Tone 5
 * (neutral) has no mark.
 */
export function toneMarked(toneless: string, tone: number): string {
  const s = toneless.replace(/v/g, 'ü');
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
  if (at < 0) at = s.search(/[mn]/); // syllabic nasals
  if (at < 0) return s;
  return s.slice(0, at) + MARKS[s[at]][tone - 1] + s.slice(at + 1);
}
