/**
 * Free-recognition accuracy and cost on the shared recordings: word error rate on the English
 * librivox and LJ Speech sentences, character error rate on AISHELL news sentences (W0200 on),
 * and CPU time per second of audio (process CPU time, so other load on the machine inflates it
 * less than wall time would). Decoding runs in this thread with the recogniser's own decoders.
 *
 * Usage: npx tsx bench/recognize.ts [--zh 20] [--en 13]
 * Ends with one JSON line: {"wer_en":…, "cer_zh":…, "cpu_rtf_en":…, "cpu_rtf_zh":…}.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { decodeAudio } from '../src/audio/decode.js';
import { standaloneRecognizer } from '../src/acoustic/recognize.js';
import { chineseChars, englishWords, errorRate } from '../src/acoustic/recognize-metrics.js';
import type { AcousticLang } from '../src/acoustic/types.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const DATA = path.resolve(ROOT, '..', 'shared', 'data');
const { values } = parseArgs({ options: { zh: { type: 'string', default: '20' }, en: { type: 'string', default: '13' }, data: { type: 'string', default: path.join(ROOT, 'data') } } });

interface Item { lang: AcousticLang; id: string; file: string; text: string }

function english(): Item[] {
  const lib = path.join(DATA, 'en', 'librivox');
  const a = fs.readdirSync(lib).filter((f) => f.endsWith('.flac')).map((f) => ({ lang: 'en' as const, id: f.slice(0, -5), file: path.join(lib, f), text: fs.readFileSync(path.join(lib, f.replace('.flac', '.txt')), 'utf8') }));
  const lj = path.join(DATA, 'en', 'ljspeech');
  const b = fs.readFileSync(path.join(lj, 'metadata_wav.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split('|'))
    .map(([wav, , norm]) => ({ lang: 'en' as const, id: path.basename(wav, '.wav'), file: path.join(lj, wav.replace(/\.wav$/, '.flac')), text: norm }));
  return [...a, ...b].slice(0, Number(values.en));
}

function mandarin(): Item[] {
  const dir = path.join(DATA, 'zh', 'aishell-s0150');
  return fs.readFileSync(path.join(dir, 'transcripts.tsv'), 'utf8').trim().split('\n').map((l) => l.split('\t'))
    .filter(([id]) => id >= 'BAC009S0150W0200').slice(0, Number(values.zh))
    .map(([id, text]) => ({ lang: 'zh' as const, id, file: path.join(dir, `${id}.flac`), text }));
}

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

async function main(): Promise<void> {
  const rec = standaloneRecognizer(path.join(ROOT, 'models'), path.join(values.data ?? '', 'cache'));
  const out: Record<string, number> = {};
  for (const [lang, list] of [['en', english()], ['zh', mandarin()]] as const) {
    const pairs: { ref: string[]; hyp: string[] }[] = [];
    let audioS = 0;
    let cpu = 0;
    for (const it of list) {
      const pcm = (await decodeAudio(fs.readFileSync(it.file))).pcm;
      const c0 = cpuMs();
      const res = rec.recognize(lang, pcm);
      cpu += cpuMs() - c0;
      audioS += pcm.length / 16000;
      const tok = lang === 'en' ? englishWords : chineseChars;
      const pair = { ref: tok(it.text), hyp: tok(res.text) };
      pairs.push(pair);
      const conf = res.confidence === null ? '' : ` conf ${res.confidence.toFixed(2)}`;
      console.log(`${it.id}: ${errorRate([pair]).toFixed(2)}${conf} | ${res.text}`);
    }
    const rate = errorRate(pairs);
    console.log(`${lang}: ${list.length} utterances, ${audioS.toFixed(1)} s, ${lang === 'en' ? 'WER' : 'CER'} ${rate.toFixed(3)}, CPU ${(cpu / 1000 / audioS).toFixed(3)} s per s of audio`);
    out[lang === 'en' ? 'wer_en' : 'cer_zh'] = Number(rate.toFixed(3));
    out[`cpu_rtf_${lang}`] = Number((cpu / 1000 / audioS).toFixed(3));
  }
  rec.close();
  console.log(JSON.stringify(out));
}

await main();
