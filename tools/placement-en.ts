/**
 * Can the English acoustic model tell which of two words owns a stretch of speech? The
 * optional-slot alignment sometimes gives a word that was not said (replaced or added in the
 * text) the frames of a said neighbour and skips the neighbour; the Mandarin engine settles
 * such pairs with a second decode (src/zh/engine/placement.ts). This tool measures the same
 * check for English on the native readings as read and with seeded alterations of their text,
 * drawn with another seed and another word pool than `npm run validity:en`.
 *
 * A candidate pair is a read word `a` and a skipped word `s` with only skipped words between
 * them, after the engine's own analysis (rescue included). The window from a's read neighbour
 * before to its read neighbour after is aligned forced through a and through s (word and phone
 * passes with GOP), and two differences are measured: the frame-weighted phone GOP of s over
 * the frames it takes minus a's, and the window's log-likelihood per frame through s minus
 * through a. The pair should move when a is the word that was not said; every other pair
 * should stay. Prints, per threshold, how many of each would move (docs/english-engine.md).
 * `npx tsx tools/placement-en.ts [draws per reading, default 3]`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { decodeAudio } from '../src/audio/decode.js';
import { createInThreadBackend } from '../src/acoustic/backend.js';
import type { AcousticBackend, FrameWindow, GrammarSlot, UnitSegment } from '../src/acoustic/types.js';
import { SAMPLES_PER_FRAME } from '../src/acoustic/types.js';
import { loadConfig } from '../src/config.js';
import { parseEvaluationConfig } from '../src/evaluation/config.js';
import { loadEnglishLexicon } from '../src/en/lexicon/index.js';
import { createEnglishEngine } from '../src/en/engine/index.js';
import { frameWeightedGop } from '../src/acoustic/gop.js';
import type { ReadingEvidence } from '../src/en/engine/evidence.js';
import { grammarOf, planReading } from '../src/en/engine/plan.js';
import { nativeSet, rng } from './en-native-set.js';
import { SO762_DIR } from './train-en-so762.js';

const draws = Number(process.argv[2] ?? 3);
/** Not the validity tool's pool: other lengths, and short words too. */
const POOL = ['summer', 'little', 'paper', 'open', 'candle', 'morning', 'silver', 'over', 'bring', 'what', 'under', 'people', 'music', 'hand'];
/** Frames of margin around a window (30 ms), as in the Mandarin check. */
const MARGIN = 3;

interface Pair {
  kind: 'native' | 'substitution' | 'omission';
  shouldMove: boolean;
  /** Frame-weighted phone GOP of s in a's place minus a's, nats per frame. */
  gop: number;
  /** Window log-likelihood through s minus through a, nats per frame of the window. */
  window: number;
}

/** Each skipped word with the nearest read word on each side: [read, skipped]. */
function candidatePairs(ev: ReadingEvidence): [number, number][] {
  const out: [number, number][] = [];
  ev.words.forEach((w, k) => {
    if (w.status === 'read') return;
    for (const dir of [-1, 1]) {
      const j = nearestRead(ev, k, dir as -1 | 1);
      if (j >= 0) out.push([j, k]);
    }
  });
  return out;
}

function nearestRead(ev: ReadingEvidence, k: number, dir: -1 | 1): number {
  for (let j = k + dir; j >= 0 && j < ev.words.length; j += dir) if (ev.words[j].status === 'read') return j;
  return -1;
}

/** `slots`: the plan's slots, every one required. */
async function measurePair(backend: AcousticBackend, pcm: Int16Array, slots: readonly GrammarSlot[], ev: ReadingEvidence, a: number, s: number): Promise<Omit<Pair, 'kind' | 'shouldMove'> | null> {
  const p = nearestRead(ev, a, -1);
  const n = nearestRead(ev, a, +1);
  const frames = Math.floor(pcm.length / SAMPLES_PER_FRAME);
  const window: FrameWindow = {
    startFrame: Math.max(0, ev.words[p >= 0 ? p : a].startFrame - MARGIN),
    endFrame: Math.min(frames, ev.words[n >= 0 ? n : a].endFrame + MARGIN),
  };
  const through = (k: number): GrammarSlot[] => [...(p >= 0 ? [slots[p]] : []), slots[k], ...(n >= 0 ? [slots[n]] : [])];
  const opts = { window, phones: true, gop: true };
  const [asIs, moved] = await Promise.all([a, s].map((k) => backend.align('en', pcm, { slots: through(k), optionalSilence: true }, opts)));
  if (!asIs.ok || !moved.ok) return null;
  const middle = (units: UnitSegment[]) => units.find((u) => u.slot === (p >= 0 ? 1 : 0));
  const [unitA, unitS] = [middle(asIs.units), middle(moved.units)];
  if (!unitA || !unitS) return null;
  const gopA = frameWeightedGop(unitA.phones);
  const gopS = frameWeightedGop(unitS.phones);
  if (gopA === null || gopS === null) return null;
  const total = (units: UnitSegment[]) => units.reduce((sum, u) => sum + u.score, 0);
  return { gop: gopS - gopA, window: (total(moved.units) - total(asIs.units)) / (window.endFrame - window.startFrame) };
}

const backend = createInThreadBackend(loadConfig(), { langs: ['en'] });
const lexicon = await loadEnglishLexicon();
const engine = createEnglishEngine({ backend, lexicon });
const rand = rng(20261127);
const pairs: Pair[] = [];

for (const it of nativeSet(path.resolve(SO762_DIR, '..'))) {
  const audio = await decodeAudio(fs.readFileSync(it.file));
  const words = it.ref.split(/\s+/);
  const cases: { kind: Pair['kind']; text: string; unsaid: number }[] = [{ kind: 'native', text: it.ref, unsaid: -1 }];
  for (let d = 0; d < draws; d++) {
    for (const kind of ['substitution', 'omission'] as const) {
      const pos = Math.floor(rand() * words.length);
      const extra = POOL[Math.floor(rand() * POOL.length)];
      const altered = kind === 'substitution' ? words.map((w, i) => (i === pos ? extra : w)) : [...words.slice(0, pos), extra, ...words.slice(pos)];
      cases.push({ kind, text: altered.join(' '), unsaid: pos });
    }
  }
  for (const c of cases) {
    const config = parseEvaluationConfig({ coreType: 'sentence', referenceText: c.text, language: 'en-US' });
    const plan = planReading(lexicon, config.referenceText, 'sentence', 'en-US');
    // The word indices of the plan follow the text's tokens (punctuation is glued to words).
    if (plan.entries.length !== c.text.split(/\s+/).length) continue;
    const { evidence } = await engine.analyse(config, audio);
    const slots = grammarOf(plan.entries, false).slots;
    for (const [a, s] of candidatePairs(evidence)) {
      const m = await measurePair(backend, audio.pcm, slots, evidence, a, s);
      if (m) pairs.push({ kind: c.kind, shouldMove: a === c.unsaid, ...m });
    }
  }
  process.stderr.write('.');
}
process.stderr.write('\n');
await backend.close();

const move = pairs.filter((p) => p.shouldMove);
const stay = pairs.filter((p) => !p.shouldMove);
console.log(`${pairs.length} pairs: ${move.length} should move; ${stay.length} should stay (${stay.filter((p) => p.kind === 'native').length} on the readings as read)`);
console.log('measure  threshold  would move: should move / should stay');
const table: Record<string, Record<string, [number, number]>> = {};
for (const key of ['gop', 'window'] as const) {
  table[key] = {};
  for (const t of key === 'gop' ? [-1, 0, 0.5, 1, 2] : [-0.2, 0, 0.2, 0.5]) {
    const above = (ps: Pair[]) => ps.filter((p) => p[key] > t).length;
    table[key][t] = [above(move), above(stay)];
    console.log(`${key.padEnd(8)} ${t.toFixed(1).padStart(9)}  ${String(above(move)).padStart(6)} / ${above(stay)}`);
  }
}
console.log(JSON.stringify({ draws, pairs: pairs.length, shouldMove: move.length, table }));
