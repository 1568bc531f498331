/**
 * How the Chinese report names things: characters in their word (「银行」的「行」), tone
 * names, genres, dimensions, and the reader (你 / 孩子 / 学生 by audience). A unit whose text
 * shows a number is named by its expected pinyin instead (读作 èr 的字), so quoting the
 * reference never brings a number into the body.
 */
import type { Genre } from '../../evaluation/config.js';
import { quotable } from '../numbers.js';
import type { Audience } from '../slots.js';
import type { DimensionKey, TextRef } from '../types.js';
import type { Say } from './bank.js';

export const TONE_NAMES = ['', '第一声', '第二声', '第三声', '第四声', '轻声'];

/** How each tone is made (Chao's five-level description, classroom wording). */
export const TONE_TIPS: Record<number, string> = {
  1: '起音要高，并且一直保持平稳，不要往下掉',
  2: '从中间往上扬，像惊讶地问“啊？”',
  3: '先降后升，单独读时要拐个弯，连读时常常只读前半段的低降',
  4: '从高处干脆地落下来，像肯定地说“对！”',
  5: '读得又轻又短，跟在前面的字后面轻轻带出来',
};

export const DIM_NAMES: Record<DimensionKey, string> = {
  integrity: '完整度',
  accuracy: '字音和声调',
  fluency: '流利度',
  reading_skill: '停连和语调',
  emotion: '情感表达',
};

export const GENRE_NAMES: Record<Genre, string> = { prose: '散文', modern_poem: '现代诗', classical_poem: '古诗' };

export const SUBJECT: Record<Audience, string> = { learner: '你', parent: '孩子', teacher: '学生' };

export const toneName = (t: number | null | undefined) => (t ? TONE_NAMES[t] ?? '' : '');

/** Toneless pinyin as the model writes it (v for ü) in ordinary spelling. */
export const plainPinyin = (s: string | null | undefined) => (s ? s.replace(/v/g, 'ü') : '');

const OCCURRENCE = { earlier: '前面', middle: '中间', later: '后面' } as const;

/** 「银行」的「行」, 「行」, or 读作 háng 的字; 后面那个「国家」的「家」 when the text has it twice. */
export function nameChar(r: TextRef): string {
  const name = nameOnce(r);
  return r.occurrence && name.startsWith('「') ? `${OCCURRENCE[r.occurrence]}那个${name}` : name;
}

function nameOnce(r: TextRef): string {
  if (r.word && r.word !== r.text && quotable(r.word) && quotable(r.text)) return `「${r.word}」的「${r.text}」`;
  if (quotable(r.text)) return `「${r.text}」`;
  // 一 in 一些: the word may be quoted even when the character alone may not.
  if (r.word && r.inWord && quotable(r.word)) return `「${r.word}」${{ start: '开头', middle: '中间', end: '末尾' }[r.inWord]}的字（${r.expected ?? ''}）`;
  if (r.expected) return `读作 ${r.expected} 的字`;
  return '其中某个字';
}

/** A run of units as one piece: 「花园」, or by pinyin when it shows a number. */
export function nameRun(refs: readonly TextRef[]): string {
  const text = refs.map((r) => r.text).join('');
  if (quotable(text)) return `「${text}」`;
  const py = refs.map((r) => r.expected).filter(Boolean);
  return py.length === refs.length ? `读作 ${py.join(' ')} 的部分` : '其中的几个字';
}

/** 「甲」、「乙」和「丙」; more than `max` → 「甲」、「乙」等. */
export function listZh(items: readonly string[], max = 4): string {
  const xs = [...new Set(items)];
  if (xs.length <= 1) return xs[0] ?? '';
  if (xs.length > max) return `${xs.slice(0, max - 1).join('、')}等`;
  // Names that already contain 和 (字音和声调) are joined with 以及 so the list stays readable.
  const and = xs.some((x) => x.includes('和')) ? '以及' : '和';
  return `${xs.slice(0, -1).join('、')}${and}${xs[xs.length - 1]}`;
}

/** Adds the audience's way of giving advice in front of an imperative clause. */
export function advise(s: Say, salt: string, clause: string): string {
  const lead = {
    learner: ['', '', '建议'],
    parent: ['可以陪孩子', '建议和孩子一起', '可以让孩子'],
    teacher: ['建议让学生', '可引导学生', '可以请学生'],
  }[s.voice.audience];
  const marker = clause.startsWith('【语速】') ? '【语速】' : '';
  const body = clause.slice(marker.length);
  return `${marker}${s.v.pick(`advise:${salt}`, lead)}${body}`;
}

/** Ends a clause list with 。 */
export const sentence = (parts: readonly string[]) => (parts.length ? `${parts.filter(Boolean).join('；')}。` : '');
