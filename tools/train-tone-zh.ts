/**
 * Trains the Mandarin tone classifier (src/zh/tone/model.json) on native read speech:
 * AISHELL speaker S0150 in ../shared/data/zh/aishell-s0150, labels from the transcript through
 * pinyin-pro with sandhi applied (the tone a native realises). Neutral tones are left out.
 *
 *   npx tsx tools/train-tone-zh.ts [--limit N]
 *
 * Held-out accuracy is measured on odd-numbered utterances with a model trained on the even
 * ones; the shipped model is then trained on all of them. Seeded, so runs are reproducible.
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../src/audio/decode.js';
import { createLocalBackend } from '../src/zh/engine/local-backend.js';
import { syllableTable } from '../src/zh/engine/syllables.js';
import { alignReading } from '../src/zh/engine/align.js';
import { analyzeZhText } from '../src/zh/engine/text.js';
import { pitchContext, toneEvidence } from '../src/zh/tone/extract.js';
import { MODEL_PATH, type ToneModel } from '../src/zh/tone/classifier.js';
import { trainMlp, accuracy } from './tone-mlp.js';

const REPO = path.resolve(import.meta.dirname, '..');
const DATA = path.resolve(REPO, '..', 'shared', 'data', 'zh', 'aishell-s0150');

interface Sample {
  x: number[];
  y: number;
  utt: number;
}

async function collect(limit: number): Promise<Sample[]> {
  const backend = createLocalBackend(path.join(REPO, 'models'));
  const table = syllableTable(backend.lexicon('zh'));
  const lines = fs.readFileSync(path.join(DATA, 'transcripts.tsv'), 'utf8').trim().split('\n').slice(0, limit);
  const samples: Sample[] = [];
  for (const [u, line] of lines.entries()) {
    const [id, text] = line.split('\t');
    const zh = analyzeZhText(text);
    if (zh.tokens.some((t) => t.charType === 2)) continue;
    const audio = await decodeAudio(fs.readFileSync(path.join(DATA, `${id}.flac`)));
    const syl = zh.read.map((i) => zh.tokens[i].syllable);
    const al = await alignReading(backend, table, syl, audio.pcm, { gop: false, optional: false });
    if (!al.ok) continue;
    const ev = toneEvidence(pitchContext(audio.pcm, audio.sampleRate), al.syllables);
    zh.read.forEach((ti, k) => {
      const tone = zh.tokens[ti].sandhiTone;
      const f = ev.features[k];
      if (f && tone >= 1 && tone <= 4) samples.push({ x: [...f], y: tone - 1, utt: u });
    });
    if (u % 50 === 0) process.stderr.write(`${u} utterances, ${samples.length} syllables\n`);
  }
  await backend.close();
  return samples;
}

async function main(): Promise<void> {
  const i = process.argv.indexOf('--limit');
  const limit = i > 0 ? Number(process.argv[i + 1]) : Infinity;
  const samples = await collect(limit);
  const train = samples.filter((s) => s.utt % 2 === 0);
  const test = samples.filter((s) => s.utt % 2 === 1);
  const half = trainMlp(train, { hidden: 24, epochs: 80, seed: 1 });
  const heldOut = accuracy(half, test);
  const full = trainMlp(samples, { hidden: 24, epochs: 80, seed: 1 });
  const model: ToneModel = {
    ...full,
    version: 'tone-zh-1',
    trainedOn: `AISHELL S0150, ${samples.length} syllables (tones 1-4, sandhi applied), labels from pinyin-pro`,
    heldOutAccuracy: Math.round(heldOut * 1000) / 1000,
  };
  fs.writeFileSync(MODEL_PATH, JSON.stringify(model) + '\n');
  console.log(JSON.stringify({ syllables: samples.length, heldOutAccuracy: model.heldOutAccuracy, trainAccuracy: accuracy(full, samples) }));
}

await main();
