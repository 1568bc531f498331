/**
 * Genre detection when the request does not name one (spec: "automatic detection marks
 * classical_poem only for highly regular regulated verse"):
 * - classical_poem: 4 or 8 clauses (jueju, lüshi), every clause 5 or 7 characters, all equal;
 * - modern_poem: at least three lines, most of them short (≤ 16 read characters), not classical;
 * - prose otherwise.
 */
import type { Genre } from '../../evaluation/config.js';
import type { ZhText } from './text.js';

export function detectGenre(text: ZhText, reference: string): Genre {
  const perClause = new Map<number, number>();
  for (const i of text.read) perClause.set(text.tokens[i].clause, (perClause.get(text.tokens[i].clause) ?? 0) + 1);
  const lens = [...perClause.values()];
  const regular = (lens.length === 4 || lens.length === 8) && (lens[0] === 5 || lens[0] === 7) && lens.every((n) => n === lens[0]);
  if (regular) return 'classical_poem';
  const lines = reference.split(/\n+/).map((l) => [...l].filter((c) => /\p{Script=Han}/u.test(c)).length).filter((n) => n > 0);
  if (lines.length >= 3 && lines.filter((n) => n <= 16).length >= 0.75 * lines.length) return 'modern_poem';
  return 'prose';
}
