/**
 * Report slots (spec "Evaluation config": reportSlots, reportPrompt) read as a voice: who the
 * report speaks to, in what manner, what it puts first and what it reminds of. Slots change
 * emphasis, address and order only; they never change the report's structure or move a
 * suggestion to another dimension, and any number in slot text is removed before use.
 *
 * Keys: focus, audience, tone, reminder (spec) and `language` (Kouyu: zh or en, chooses the
 * report language against the task's default). Other keys are accepted and ignored.
 */
import { containsNumber, stripNumbers } from './numbers.js';
import { DIMENSION_KEYS, type DimensionKey, type ReportLanguage } from './types.js';

export type Audience = 'learner' | 'parent' | 'teacher';
export type Style = 'warm' | 'encouraging' | 'direct' | 'lively';

export interface Voice {
  language: ReportLanguage;
  audience: Audience;
  style: Style;
  /** Dimensions the caller asked to hear about first, in the order found in the focus text. */
  focus: DimensionKey[];
  /** The focus names tones in particular (Mandarin accuracy). */
  focusTone: boolean;
  /** Focus text that matched no dimension, numbers removed; said back in the summary. */
  focusText: string | null;
  reminder: string | null;
}

const FOCUS_WORDS: [DimensionKey | 'tone', RegExp][] = [
  ['tone', /声调|音调|四声|变调|tone(?!\s*of)/i],
  ['integrity', /漏读|漏字|添字|增读|完整|回读|skip|miss|omi|complete|whole text|extra word/i],
  ['accuracy', /发音|字音|读音|前后鼻|平翘舌|声母|韵母|准确|pronunc|accura|sound|vowel|consonant|phone/i],
  ['fluency', /流利|流畅|语速|速度|快慢|停顿|卡顿|fluen|pace|speed|rate|pause|hesita/i],
  ['reading_skill', /停连|重音|语调|节奏|抑扬|断句|stress|intonation|rhythm|phras|melody/i],
  ['emotion', /情感|感情|语气|表情|朗诵|感染|emotion|feeling|express|mood/i],
];

const AUDIENCE_WORDS: [Audience, RegExp][] = [
  ['parent', /家长|父母|爸爸|妈妈|parent|mother|father|family/i],
  ['teacher', /老师|教师|教研|teacher|instructor|tutor|school/i],
  ['learner', /学生|孩子|小朋友|学员|自己|student|child|kid|learner|pupil/i],
];

const STYLE_WORDS: [Style, RegExp][] = [
  ['direct', /严格|直接|简洁|简短|客观|专业|不要客套|strict|direct|concise|brief|blunt|formal|objective/i],
  ['lively', /活泼|生动|有趣|幽默|童趣|lively|playful|fun|cheerful|humor/i],
  ['encouraging', /鼓励|温和|亲切|耐心|表扬|夸|温柔|encourag|gentle|kind|warm|positive|support|praise/i],
];

function firstMatch<T>(text: string | undefined, table: [T, RegExp][]): T | null {
  if (!text) return null;
  for (const [value, re] of table) if (re.test(text)) return value;
  return null;
}

/** Caller text as it may appear in a body: numbers removed, brackets that would confuse quoting removed, length capped. */
export function cleanSlotText(text: string | undefined, maxChars = 60): string | null {
  if (!text) return null;
  const cleaned = stripNumbers(text).replace(/[「」“”"<>{}$`]/g, '').replace(/\s+/g, ' ').trim();
  const short = Array.from(cleaned).slice(0, maxChars).join('').trim();
  return short === '' || containsNumber(short) ? null : short;
}

function languageOf(value: string | undefined, fallback: ReportLanguage): ReportLanguage {
  if (!value) return fallback;
  const v = value.trim().toLowerCase();
  if (/^(zh|cn|chinese|中文|汉语|普通话)/.test(v)) return 'zh';
  if (/^(en|english|英文|英语)/.test(v)) return 'en';
  return fallback;
}

export function voiceFromSlots(slots: Record<string, string>, taskLanguage: string): Voice {
  const fallback: ReportLanguage = taskLanguage === 'zh-CN' ? 'zh' : 'en';
  const focusRaw = slots.focus;
  const hits = FOCUS_WORDS.filter(([, re]) => focusRaw !== undefined && re.test(focusRaw))
    .map(([key, re]) => ({ key, at: focusRaw!.search(re) }))
    .sort((a, b) => a.at - b.at);
  const focus = [...new Set(hits.map((h) => (h.key === 'tone' ? 'accuracy' : h.key)))].filter((k): k is DimensionKey =>
    (DIMENSION_KEYS as readonly string[]).includes(k),
  );
  return {
    language: languageOf(slots.language, fallback),
    audience: firstMatch(slots.audience, AUDIENCE_WORDS) ?? 'learner',
    style: firstMatch(slots.tone, STYLE_WORDS) ?? 'warm',
    focus,
    focusTone: hits.some((h) => h.key === 'tone'),
    focusText: focus.length === 0 ? cleanSlotText(focusRaw) : null,
    reminder: cleanSlotText(slots.reminder, 100),
  };
}
