/**
 * Toneless pinyin syllables in the acoustic model's phones, derived from the model's own
 * pronunciation lexicon: every single-character entry votes for the phones of its pinyin-pro
 * reading. The Mandarin dictionary spells some syllables two ways (yu as `uxs ux` and `y u`),
 * so every spelling with at least 30% of the leading spelling's votes is kept as an
 * alternative pronunciation. Built once per lexicon (about 20,000 look-ups, ~0.3 s).
 */
import { pinyin } from 'pinyin-pro';
import type { Lexicon } from '../../acoustic/types.js';
import { editDistance } from '../../acoustic/recognize-metrics.js';

export interface SyllableTable {
  /** Toneless syllable (ü as v) → pronunciations in model phones. */
  prons: ReadonlyMap<string, string[][]>;
  syllables: readonly string[];
  /** First phone is an initial (consonant) rather than part of the final. */
  initialOf(syllable: string): string;
  finalOf(syllable: string): string;
  /** Syllables that share a pronunciation (homophones for a toneless model). */
  same(a: string, b: string): boolean;
}

const CJK_FIRST = 0x4e00;
const CJK_LAST = 0x9fa5;
/** Share of the leading spelling's votes an alternative spelling needs. */
const ALT_SHARE = 0.3;
const INITIALS = ['zh', 'ch', 'sh', 'b', 'p', 'm', 'f', 'd', 't', 'n', 'l', 'g', 'k', 'h', 'j', 'q', 'x', 'r', 'z', 'c', 's', 'y', 'w'];

/** The initial of a pinyin syllable as spelled (y and w count as initials), '' for none; a tone digit may follow. */
export function initialOf(syllable: string): string {
  return INITIALS.find((i) => syllable.startsWith(i)) ?? '';
}

const cache = new WeakMap<Lexicon, SyllableTable>();

export function syllableTable(lexicon: Lexicon): SyllableTable {
  const hit = cache.get(lexicon);
  if (hit) return hit;
  const chars: string[] = [];
  const entries: string[][][] = [];
  for (let cp = CJK_FIRST; cp <= CJK_LAST; cp++) {
    const c = String.fromCodePoint(cp);
    const prons = lexicon.lookup(c);
    if (!prons) continue;
    chars.push(c);
    entries.push(prons);
  }
  const readings = pinyin(chars.join(''), { type: 'array', toneType: 'none', v: true });
  const votes = new Map<string, Map<string, number>>();
  readings.forEach((syl, i) => {
    const m = votes.get(syl) ?? new Map<string, number>();
    votes.set(syl, m);
    for (const p of entries[i]) m.set(p.join(' '), (m.get(p.join(' ')) ?? 0) + 1);
  });
  const prons = new Map<string, string[][]>();
  for (const [syl, m] of votes) {
    if (!/^[a-z]+$/.test(syl)) continue;
    // Ties go to the spelling whose phones read most like the syllable: 给's two entries, j i
    // and g ei, give gei one vote each.
    const ranked = [...m].sort((a, b) => b[1] - a[1] || spellingDistance(syl, a[0]) - spellingDistance(syl, b[0]));
    const keep = ranked.filter(([, n], i) => i === 0 || n >= Math.max(2, ranked[0][1] * ALT_SHARE));
    prons.set(syl, keep.map(([p]) => p.split(' ')));
  }
  const key = new Map<string, Set<string>>([...prons].map(([s, ps]) => [s, new Set(ps.map((p) => p.join(' ')))]));
  const table: SyllableTable = {
    prons,
    syllables: [...prons.keys()].sort(),
    initialOf,
    finalOf: (s) => s.slice(initialOf(s).length),
    same(a, b) {
      if (a === b) return true;
      const ka = key.get(a);
      const kb = key.get(b);
      return !!ka && !!kb && [...ka].some((p) => kb.has(p));
    },
  };
  cache.set(lexicon, table);
  return table;
}

/** Letters to change between a syllable and a spelling's phones written together. */
const spellingDistance = (syllable: string, spelling: string) => editDistance([...syllable], [...spelling.replace(/ /g, '')]);
