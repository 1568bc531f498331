/**
 * The model's instructions and evidence. Evidence only: the model sees levels (words, never
 * scores), the facts the engine established (the template's own comments, which name every
 * skipped, misread and mistoned unit with its expected pronunciation), the reference text and
 * the caller's voice. It is told the rules the writer enforces afterwards anyway.
 */
import type { Voice } from '../slots.js';
import type { ReportBody } from '../template/compose.js';
import { DIMENSION_KEYS, type ReportEvidence } from '../types.js';
import type { ChatMessage } from './client.js';

const BANDS = { 1: 'grade 2 and below', 2: 'grades 3-4', 3: 'grades 5-7', 4: 'grade 8 and up' } as const;

const RULES_ZH = [
  '你是一位经验丰富的朗读老师，根据测评引擎给出的证据为一次朗读写评语。',
  '只使用证据中出现的事实：不要编造没有列出的错字、漏字或停顿。',
  '评语和建议中绝对不能出现任何数字或分数（包括阿拉伯数字和“九十分”之类的中文数字）；声调名称如“第二声”可以使用。',
  '声调相关的评语写在 accuracy 中，声调建议放在 accuracy 的建议里；语速建议放在 fluency 的建议里，并以【语速】开头。',
  '每个维度最多四条建议，每条一句话。summary 先说最重要的问题。',
  'skillInsights 只在确有依据时给出（aspect 取 内在语、情景再现、对象感），quote 必须逐字摘自原文，confidence 取 low、medium、high；没有就返回空数组。',
];

const RULES_EN = [
  'You are an experienced reading teacher writing feedback on one read-aloud recording from the engine evidence below.',
  'Use only facts present in the evidence: never invent skipped, misread or paused words that are not listed.',
  'Never write any number or score in any form (no digits, no number words).',
  'Tone remarks belong to accuracy; speech-rate suggestions belong to fluency and start with 【语速】.',
  'At most four suggestions per dimension, one sentence each. The summary starts with what matters most.',
  'Give skillInsights only with real grounds (aspect one of 内在语, 情景再现, 对象感; quote copied exactly from the reference text; confidence low, medium or high); otherwise an empty array.',
];

export function buildMessages(ev: ReportEvidence, voice: Voice, reference: string, draft: ReportBody): ChatMessage[] {
  const zh = voice.language === 'zh';
  const system = [
    ...(zh ? RULES_ZH : RULES_EN),
    zh ? '用中文写。' : 'Write in English.',
    `Reader: ${voice.audience}; manner: ${voice.style}.`,
    voice.focus.length ? `Put first: ${voice.focus.join(', ')}${voice.focusTone ? ' (tones)' : ''}.` : '',
    voice.focusText ? `The caller asks about: ${voice.focusText}` : '',
    voice.reminder ? `Add this reminder at the end of the summary: ${voice.reminder}` : '',
  ].filter(Boolean);
  const evidence = {
    language: ev.language,
    kind: ev.coreType,
    learner: BANDS[ev.gradeBand],
    genre: ev.genre,
    levels: ev.levels,
    pace: ev.pace,
    weightsOrder: [...DIMENSION_KEYS].sort((a, b) => ev.weights[b] - ev.weights[a]),
    established: draft.dimensions,
    referenceText: reference,
  };
  return [
    { role: 'system', content: system.join('\n') },
    { role: 'user', content: JSON.stringify(evidence) },
  ];
}
