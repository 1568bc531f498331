/**
 * Reports on real recordings: the Mandarin and English engines on ../shared/data readings, read
 * as recorded (good) and against deliberately altered references (poor: substituted, skipped
 * and added words, wrong tones through refPinyin), some with report slots. Prints each
 * report's body; `--json` prints whole report objects.
 *
 *   npx tsx tools/report-examples.ts [--json] [--only zh|en]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInThreadBackend } from '../src/acoustic/backend.js';
import { decodeAudio, type DecodedAudio } from '../src/audio/decode.js';
import { parseEvaluationConfig } from '../src/evaluation/config.js';
import { createEnglishEngine } from '../src/en/engine/engine.js';
import { createLimitBackend } from '../src/gateway/limiters.js';
import { createReportWriter } from '../src/report/writer.js';
import type { Report } from '../src/report/types.js';
import { createMandarinEngine } from '../src/zh/engine/engine.js';
import { analyzeZhText } from '../src/zh/engine/text.js';

const REPO = path.resolve(import.meta.dirname, '..');
const DATA = path.resolve(REPO, '..', 'shared', 'data');
const MODELS = path.join(REPO, 'models');
const JSON_OUT = process.argv.includes('--json');
const ONLY = process.argv[process.argv.indexOf('--only') + 1];

interface Case {
  title: string;
  audio: string;
  config: Record<string, unknown>;
}

/** Reference pinyin of a text with one tone changed at read position k (numeric-tone syllables). */
function toneChanged(text: string, k: number, tone: number): string {
  const t = analyzeZhText(text);
  return t.read.map((i, j) => `${t.tokens[i].syllable}${j === k ? tone : t.tokens[i].tone}`).join(' ');
}

function zhCases(): Case[] {
  const dir = path.join(DATA, 'zh', 'aishell-s0150');
  const audio = (id: string) => path.join(dir, `${id}.flac`);
  const s1 = '有一个重要指标就是它的经常性账户顺逆差';
  const s2 = '而是因为其他国家尤其是周边国家房价下跌而受到冲击';
  const s3 = '所有因外部冲击导致房价泡沫破灭的经济体';
  const s4 = '有一些经济体并不是因为本身的原因导致的下跌';
  const base = { language: 'zh-CN', coreType: 'sentence' };
  return [
    { title: 'zh good reading', audio: audio('BAC009S0150W0133'), config: { ...base, referenceText: s1 } },
    { title: 'zh misread: reference 周边 → 周围 (the reader says biān)', audio: audio('BAC009S0150W0132'), config: { ...base, referenceText: s2.replace('周边', '周围') } },
    { title: 'zh wrong tone: refPinyin asks 房 fang4 (read fáng)', audio: audio('BAC009S0150W0134'), config: { ...base, referenceText: s3, refPinyin: toneChanged(s3, 9, 4) } },
    { title: 'zh skipped: reference adds 中国 (not read), gradeBand 1', audio: audio('BAC009S0150W0133'), config: { ...base, gradeBand: 1, referenceText: s1.replace('就是', '就是中国') } },
    { title: 'zh added: reference drops 本身 (read anyway), slots parent/encouraging/focus 声调', audio: audio('BAC009S0150W0131'), config: { ...base, referenceText: s4.replace('本身', ''), reportSlots: { audience: '家长', tone: '鼓励', focus: '声调和漏读', reminder: '每天朗读十分钟' } } },
  ];
}

function enCases(): Case[] {
  const lv = path.join(DATA, 'en', 'librivox', 'sense_and_sensibility_01_austen_64kb-0880');
  const lj = (id: string) => path.join(DATA, 'en', 'ljspeech', 'wavs', `${id}.flac`);
  const so = (id: string) => path.join(DATA, 'en', 'speechocean762', 'test', `${id}.opus`);
  const base = { language: 'en-US', coreType: 'sentence' };
  const lj3 = 'For although the Chinese took impressions from wood blocks engraved in relief for centuries before the woodcutters of the Netherlands, by a similar process';
  return [
    { title: 'en good reading (LibriVox)', audio: `${lv}.flac`, config: { ...base, referenceText: 'He was not an ill disposed young man.' } },
    { title: 'en misread: reference impressions → expressions (LJSpeech)', audio: lj('LJ001-0003'), config: { ...base, referenceText: lj3.replace('impressions', 'expressions') } },
    { title: 'en skipped: reference adds "very old" (LJSpeech), slots teacher/direct/focus pace', audio: lj('LJ001-0003'), config: { ...base, referenceText: lj3.replace('wood blocks', 'very old wood blocks'), reportSlots: { audience: 'teacher', tone: 'direct and concise', focus: 'pace and pauses' } } },
    { title: 'en learner (speechocean762 007360108, experts: accuracy low)', audio: so('007360108'), config: { ...base, referenceText: 'The crime rate is high.' } },
    { title: 'en learner (speechocean762), gradeBand 2, Chinese report via reportSlots.language', audio: so('000440104'), config: { ...base, gradeBand: 2, referenceText: 'Lisa Layla got the boots.', reportSlots: { language: 'zh', audience: '孩子' } } },
  ];
}

function print(title: string, r: Report): void {
  console.log(`\n=== ${title} [${r.source}]`);
  if (JSON_OUT) return void console.log(JSON.stringify(r, null, 2));
  console.log(`summary: ${r.summary}`);
  for (const [k, v] of Object.entries(r.dimensions)) console.log(`  ${k}: ${v}`);
  for (const [k, v] of Object.entries(r.dimensionSuggestions)) for (const s of v) console.log(`  → ${k}: ${s}`);
}

async function main(): Promise<void> {
  const writer = createReportWriter({ llm: { baseUrl: null, apiKey: null, model: '', timeoutMs: 1000 }, limitBackend: createLimitBackend(null), trialDailyAiReports: 0 });
  const decode = async (file: string): Promise<DecodedAudio> => decodeAudio(fs.readFileSync(file));
  const backend = createInThreadBackend({ modelsDir: MODELS, dataDir: path.join(os.tmpdir(), 'kouyu-report-examples') });
  if (ONLY !== 'en') {
    const zh = await createMandarinEngine({ backend, modelsDir: MODELS });
    for (const c of zhCases()) {
      const config = parseEvaluationConfig(c.config);
      print(c.title, await writer.writeAssessment(await zh.assess(config, await decode(c.audio)), config));
    }
  }
  if (ONLY !== 'zh') {
    const en = createEnglishEngine({ backend });
    for (const c of enCases()) {
      const config = parseEvaluationConfig(c.config);
      print(c.title, await writer.writeAssessment(await en.assess(config, await decode(c.audio)), config));
    }
  }
  await backend.close();
}

await main();
