/**
 * Mandarin text layer speed: the first analyzeMandarinText call's wall time (it loads the word
 * segmenter's dictionary), then CPU milliseconds per call on a 100-character passage (after
 * warm-up), median of 15 batches of 50 calls, each call on a slightly different text so that no
 * cache answers. Prints one JSON line {"zh_text_first_call_ms": …, "zh_text_ms_per_100_chars": …}.
 */
import { analyzeMandarinText } from '../src/zh/text/analyze.js';

const PASSAGE =
  '春天来了，小草从地下探出头来，花儿也都开了。我们一起去公园散步，看见3.5米高的大树上有两只小鸟在唱歌。' +
  '妈妈说：“一年之计在于春。”我想，我也要好好学习，不辜负这美好的时光！';
const text = Array.from(PASSAGE + PASSAGE).slice(0, 99).join('');
const t0 = performance.now();
analyzeMandarinText(text);
const firstCall = performance.now() - t0;
for (let i = 0; i < 200; i++) analyzeMandarinText(text + (i % 10));
const batches: number[] = [];
for (let b = 0; b < 15; b++) {
  const c0 = process.cpuUsage();
  for (let i = 0; i < 50; i++) analyzeMandarinText(text + (i % 10));
  const c = process.cpuUsage(c0);
  batches.push((c.user + c.system) / 1000 / 50);
}
batches.sort((a, b) => a - b);
const median = batches[batches.length >> 1];
console.log(`mandarin text: ${Array.from(text).length + 1} characters, median CPU ${median.toFixed(3)} ms per call (min ${batches[0].toFixed(3)}, max ${batches.at(-1)!.toFixed(3)})`);
console.log(`first call ${firstCall.toFixed(0)} ms (wall)`);
console.log(JSON.stringify({ zh_text_first_call_ms: Math.round(firstCall), zh_text_ms_per_100_chars: Number(median.toFixed(3)) }));
