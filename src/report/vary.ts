/**
 * Deterministic variation of phrasing: the same record always reads the same, different records
 * read differently. The seed is a 32-bit FNV-1a hash of the record's content (reference text,
 * read statuses, speed); each choice mixes the seed with a salt naming the place in the text,
 * so two choices in one report are independent.
 */

/** FNV-1a, 32 bit (Fowler, Noll, Vo). */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export interface Variation {
  /** One of `options`, chosen by the seed and the salt. */
  pick<T>(salt: string, options: readonly T[]): T;
  /** True for about `share` of records at this salt. */
  chance(salt: string, share: number): boolean;
}

export function variation(seed: number): Variation {
  const mix = (salt: string) => fnv1a(`${seed}:${salt}`);
  return {
    pick<T>(salt: string, options: readonly T[]): T {
      if (options.length === 0) throw new Error(`no phrasing for ${salt}`);
      return options[mix(salt) % options.length];
    },
    chance(salt: string, share: number): boolean {
      return mix(salt) / 0x100000000 < share;
    },
  };
}
