/**
 * Slot grammars as JSGF for the PocketSphinx grammar (FSG) search, and the reverse step:
 * reading a decoded word sequence back into slots, alternatives and pronunciations.
 *
 * Every pronunciation becomes a dictionary word named after its phones (`p_` + phones joined
 * by `_`), so the dictionary only grows with distinct pronunciations, never per request, and a
 * decoded word names its phones. Single phones are words of the same form (`p_a`), which is
 * what the phone-level pass and the insertion (garbage) loop are built from.
 * Pure functions: no decoder, no I/O.
 */
import type { GrammarSpec } from '../types.js';

const PREFIX = 'p_';

/** The dictionary word that stands for a pronunciation. */
export function pronWord(phones: readonly string[]): string {
  return PREFIX + phones.join('_');
}

/** True for words made by pronWord (everything else decoded is silence or a filler). */
export function isPronWord(word: string): boolean {
  return word.startsWith(PREFIX);
}

/** Null transitions of the grammar show up as segments named (NULL); they take no time. */
export function isNullWord(word: string): boolean {
  return word === '(NULL)';
}

export function phonesOfWord(word: string): string[] {
  return word.slice(PREFIX.length).split('_');
}


export interface CompiledGrammar {
  jsgf: string;
  /** Dictionary words the grammar uses, with their phones. */
  words: Map<string, string[]>;
}

/**
 * JSGF for a slot grammar. Silence and fillers need no rule: the FSG search adds optional
 * silence/filler self-loops at every grammar state (`-fsgusefiller`, on by default).
 * With insertions, an optional loop of single phones (`garbagePhones`) sits before, between
 * and after the slots; the engine holds it back with a word insertion penalty (JSGF weights
 * have no effect in the 5prealpha FSG search).
 */
export function compileGrammar(grammar: GrammarSpec, garbagePhones: readonly string[]): CompiledGrammar {
  const words = new Map<string, string[]>();
  const parts: string[] = [];
  const gap = grammar.allowInsertions === true && garbagePhones.length > 0;
  if (gap) parts.push('<gap>');
  grammar.slots.forEach((slot, i) => {
    const alts = new Set<string>();
    for (const alt of slot.alternatives) {
      for (const pron of alt.prons) {
        if (pron.length === 0) continue;
        const w = pronWord(pron);
        words.set(w, [...pron]);
        alts.add(w);
      }
    }
    if (alts.size === 0) throw new Error(`slot ${i} has no pronunciation`);
    const body = [...alts].join(' | ');
    parts.push(slot.optional ? `[ ${body} ]` : `( ${body} )`);
    if (gap) parts.push('<gap>');
  });
  const lines = ['#JSGF V1.0;', 'grammar kouyu;', `public <utt> = ${parts.join(' ')};`];
  if (gap) {
    for (const p of garbagePhones) words.set(pronWord([p]), [p]);
    lines.push('<gap> = [ <phn>+ ];');
    lines.push(`<phn> = ${garbagePhones.map((p) => pronWord([p])).join(' | ')};`);
  }
  return { jsgf: lines.join('\n') + '\n', words };
}

/** JSGF accepting exactly one phone sequence, each phone a word (phone-level pass). */
export function compilePhoneSequence(phones: readonly string[]): CompiledGrammar {
  const words = new Map<string, string[]>();
  for (const p of phones) words.set(pronWord([p]), [p]);
  const body = phones.map((p) => pronWord([p])).join(' ');
  return { jsgf: `#JSGF V1.0;\ngrammar kouyu;\npublic <utt> = ${body};\n`, words };
}

/** What one decoded word was: a slot's alternative and pronunciation, or an inserted phone. */
export type WordRole = { kind: 'slot'; slot: number; alt: number; pron: number } | { kind: 'insert'; phone: string };

/**
 * Assigns decoded grammar words (fillers removed) to slots: a dynamic programme over
 * (words consumed, slots passed) that prefers the parse with the fewest inserted phones.
 * Returns null when the words are not a complete path through the grammar, which is how a
 * search that ran out of beam ("final result does not match the grammar") shows itself.
 */
export function parseSlots(words: readonly string[], grammar: GrammarSpec): WordRole[] | null {
  const n = words.length;
  const m = grammar.slots.length;
  const insert = grammar.allowInsertions === true;
  const INF = Number.MAX_SAFE_INTEGER;
  // cost[i][j]: fewest insertions to explain words[i..] with slots[j..].
  const cost: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(INF));
  cost[n][m] = 0;
  for (let i = n; i >= 0; i--) {
    for (let j = m; j >= 0; j--) {
      if (i === n && j === m) continue;
      let best = INF;
      if (j < m && grammar.slots[j].optional) best = Math.min(best, cost[i][j + 1]);
      if (i < n && j < m && matchSlot(words[i], grammar, j) && cost[i + 1][j + 1] < best) best = cost[i + 1][j + 1];
      if (i < n && insert && isSinglePhone(words[i]) && cost[i + 1][j] < INF) best = Math.min(best, cost[i + 1][j] + 1);
      cost[i][j] = best;
    }
  }
  if (cost[0][0] === INF) return null;
  const roles: WordRole[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    const here = cost[i][j];
    const match = i < n && j < m ? matchSlot(words[i], grammar, j) : null;
    if (match && cost[i + 1][j + 1] === here) {
      roles.push({ kind: 'slot', slot: j, ...match });
      i++;
      j++;
    } else if (j < m && grammar.slots[j].optional && cost[i][j + 1] === here) {
      j++;
    } else {
      roles.push({ kind: 'insert', phone: phonesOfWord(words[i])[0] });
      i++;
    }
  }
  return roles;
}

function isSinglePhone(word: string): boolean {
  return isPronWord(word) && !word.slice(PREFIX.length).includes('_');
}

/** First alternative and pronunciation of the slot whose word is `word` (homophones: first wins). */
function matchSlot(word: string, grammar: GrammarSpec, j: number): { alt: number; pron: number } | null {
  const alts = grammar.slots[j].alternatives;
  for (let a = 0; a < alts.length; a++) {
    const p = alts[a].prons.findIndex((pron) => pron.length > 0 && pronWord(pron) === word);
    if (p >= 0) return { alt: a, pron: p };
  }
  return null;
}
