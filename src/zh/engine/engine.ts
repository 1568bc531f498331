/**
 * The Mandarin read-aloud engine (kinds word, sentence, passage, pinyin; language zh-CN):
 * text analysis → forced alignment with skippable characters → context competition per
 * character (substitutions) and in long gaps (insertions) → tone from the final's pitch contour
 * → units, prosody and the five dimensions. Audio that does not match the text gives low scores
 * and warnings, never an exception; text errors are 400 40001 (`invalid`).
 *
 * @example
 *   const engine = await createMandarinEngine({ backend, modelsDir: config.modelsDir });
 *   const assessment = await engine.assess(evaluationConfig, await decodeAudio(buf));
 *   const body = presentReadAloud(assessment, evaluationConfig, { readtypeDiagnosis: false });
 */
import { frameWeightedGop } from '../../acoustic/gop.js';
import { forReading, withVoice, type AcousticBackend } from '../../acoustic/types.js';
import { analyzeQuality } from '../../audio/quality.js';
import { isWideband } from '../../audio/bandwidth.js';
import type { DecodedAudio } from '../../audio/decode.js';
import { PitchAnalysis } from '../../dsp/pitch.js';
import type { Assessment } from '../../assessment/types.js';
import { MAX_REFERENCE_CHARS, type EvaluationConfig } from '../../evaluation/config.js';
import { invalid } from '../../errors.js';
import { classifyTones, loadToneModel, type ToneModel } from '../tone/classifier.js';
import { pitchOfSpan, readerVoice, toneEvidence } from '../tone/extract.js';
import { alignWithOmissions, frameLevels, loudFrames, medianSyllableFrames, squeezed, worstGop, type AlignedSyllable, type ReadingAlignment } from './align.js';
import { assemble } from './assemble.js';
import { alignRun, clipBetween, compete, findInsertion, fitsBetween, insertedFrames, nearest, phonesAs, placeInsertions, presence, recoverInPair, recoverSkipped, type Competition, type Insertion } from './context.js';
import { acceptInsertion, CALIBRATION, gopScore, judgeTone, pronunciationScore, substitutionThreshold } from './judge.js';
import { placeSkipped } from './placement.js';
import { otherPlaceSibilants } from './sibilants.js';
import { familiarVoice, onsetHeard, PART_SUPPORT, partsHeard, spectraOf, writtenOverHeard, type PartModels } from './parts.js';
import { loadPartModel } from '../parts/classifier.js';
import { energyDb, prosody, type TimedSyllable } from './prosody.js';
import { acceptedTones, judgedTones } from './sandhi.js';
import { syllableTable, type SyllableTable } from './syllables.js';
import { analyzeZhText, type ZhText } from './text.js';
import { buildUnits, type CharJudgement } from './units.js';

export const ZH_KINDS = ['word', 'sentence', 'passage', 'pinyin'] as const;
export const KERNEL_VERSION = 'kouyu-zh-1.0';

export interface MandarinEngine {
  assess(config: EvaluationConfig, audio: DecodedAudio): Promise<Assessment>;
}

/** `toneModel`, `initialModel` and `finalModel` name other model files than the shipped ones (tools measure held-out halves with them). */
export async function createMandarinEngine(deps: { backend: AcousticBackend; modelsDir: string; toneModel?: string; initialModel?: string; finalModel?: string }): Promise<MandarinEngine> {
  const table = syllableTable(deps.backend.lexicon('zh'));
  const models = { tone: loadToneModel(deps.toneModel), parts: { initial: loadPartModel('initial', deps.initialModel), final: loadPartModel('final', deps.finalModel) } };
  const versions = { kernel: KERNEL_VERSION, resource: `pocketsphinx-zh-tdt_sc_8k+${models.tone.version}+${models.parts.initial.version}+${models.parts.final.version}` };
  return { assess: (config, audio) => assess(deps.backend, table, models, versions, config, audio) };
}

/** Validates the request's text side and analyses it (throws 40001). */
export function analyzeRequestText(config: EvaluationConfig): ZhText {
  if (config.language !== 'zh-CN') throw invalid('the Mandarin engine needs language zh-CN');
  if (!(ZH_KINDS as readonly string[]).includes(config.coreType)) throw invalid(`coreType ${config.coreType} is not a Mandarin read-aloud kind`);
  if ([...config.referenceText].length > MAX_REFERENCE_CHARS) throw invalid(`referenceText longer than ${MAX_REFERENCE_CHARS} characters`);
  if (config.coreType === 'pinyin' && !config.refPinyin) throw invalid('refPinyin is required for the pinyin kind');
  return analyzeZhText(config.referenceText, { refPinyin: config.refPinyin, genre: config.genre });
}

async function assess(
  shared: AcousticBackend,
  table: SyllableTable,
  models: { tone: ToneModel; parts: PartModels },
  versions: { kernel: string; resource: string },
  config: EvaluationConfig,
  audio: DecodedAudio,
): Promise<Assessment> {
  const text = analyzeRequestText(config);
  // The recording is analysed for pitch once: the reader's voice now, the reading's span later.
  const pitchAnalysis = new PitchAnalysis(audio.pcm, audio.sampleRate);
  // Every pass decodes with the front end normalised for the reader's voice (acoustic/sphinx/vtln.ts),
  // as one reading: passes over the same samples share their cepstra.
  const backend = forReading(withVoice(shared, readerVoice(pitchAnalysis)));
  const labels = text.read.map((i) => text.tokens[i].syllable);
  const quality = analyzeQuality(audio.pcm, audio.sampleRate).warnings;
  const al = await alignWithOmissions(backend, table, labels, audio.pcm, text.read.map((i) => text.tokens[i].clause));
  const heardLabels = [...labels];
  const recovered = al.ok ? await recoverAll(backend, table, audio.pcm, al, labels, config.slack) : { others: new Map<number, string>(), reduced: new Set<number>() };
  const pitch = pitchOfSpan(pitchAnalysis);
  const fixedChars = new Set([...recovered.reduced, ...recovered.others.keys()]);
  if (al.ok) await placeSkipped(backend, table, audio.pcm, pitch, models.tone, text, al, labels, fixedChars);
  const comps = al.ok ? await competeAll(backend, table, audio.pcm, al, heardLabels, config.slack, recovered) : [];
  // The checks beside the competition read the band above 4 kHz: wideband speech only. The
  // whole band's overruling comes before the short ones among the competition's flags are
  // dropped: a character heard as written is not one to drop.
  const wide = al.ok && isWideband(audio);
  const band: WholeBand = { spectra: spectraOf(audio.pcm), table, models: models.parts, syllables: al.syllables, labels, heardLabels, comps, fixed: fixedChars, heardAsWritten: new Set(), slack: config.slack };
  if (wide) await keepHeardAsRead(band, backend, audio.pcm);
  const dropped = al.ok ? await dropUnread(backend, table, audio.pcm, al, labels, heardLabels, comps, config.slack, recovered.others) : [];
  if (dropped.length > 0) {
    // Dropped characters are skipped ones the placement has not seen: the same choice for them,
    // and a character that takes frames anew has no competition on them.
    for (const m of await placeSkipped(backend, table, audio.pcm, pitch, models.tone, text, al, labels, fixedChars, new Set(dropped))) {
      heardLabels[m.skipped] = labels[m.skipped];
      comps[m.skipped] = null;
      comps[m.aligned] = null;
    }
  }
  if (wide) {
    await judgeParts(band, backend, audio.pcm);
    // The place of sibilant initials (sibilants.ts): a character still read whose s was said
    // retroflex, or whose zh, ch or sh flat, is heard as the syllable of the other place.
    markHeard(otherPlaceSibilants(audio.pcm, table, al.syllables, labels, config.slack), heardLabels, comps, substitutionThreshold(config.slack));
    markHeard(heardInOnsets(band, audio.pcm), heardLabels, comps, substitutionThreshold(config.slack));
  }
  if (al.ok) await recoverAfterJudging(backend, table, audio.pcm, al, labels, heardLabels, comps, config.slack);
  const insertions = al.ok ? placeInsertions(al.syllables, await insertionsOf(backend, table, audio.pcm, al, heardLabels, config.slack)) : [];
  const ctx = al.ok ? pitch(al.syllables) : null;
  const tones = toneEvidence(ctx, al.syllables, text.read.map((i) => text.tokens[i].sandhiTone));
  const toneProbs = classifyTones(models.tone, tones.features, judgedTones(text.tokens, text.read));
  const threshold = substitutionThreshold(config.slack);
  const timed = timedSyllables(text, al, audio.pcm);
  const pros = prosody(timed.list, ctx, text.genre, config.gradeBand, text.clauseCount);
  const judged: CharJudgement[] = labels.map((_, k) => {
    const a = al.syllables[k];
    const gop = a ? frameWeightedGop(a.phones) : null;
    const comp = comps[k] ?? null;
    const pron = a ? pronunciationScore(gop, comp, threshold) : { score: null, substituted: false };
    const t = text.tokens[text.read[k]];
    const toneJ = a ? judgeTone(t.tone, t.sandhiTone, acceptedTones(text.tokens, text.read, k), toneProbs[k], config.slack) : null;
    const j = timed.index.get(k);
    return {
      aligned: a,
      pronunciation: pron.score,
      gop: gop === null ? null : Math.round(gopScore(gop)),
      substituted: pron.substituted,
      heard: comp ? comp.heard : null,
      tone: toneJ,
      prominence: j === undefined ? 0 : pros.prominence[j],
      pauseAfter: j === undefined ? 0 : timed.list[j].gapAfter,
    };
  });
  const units = buildUnits(table, text, judged, insertions, heardLabels);
  const substitutedShare = judged.filter((j) => j.substituted).length / Math.max(1, judged.filter((j) => j.aligned).length);
  // Nothing to do with the text: alignment impossible, or most characters read as something else.
  // The quality check's own "no valid audio" (1001) also voids the scores (spec: not trustworthy).
  const noEvidence = !al.ok || judged.every((j) => !j.aligned) || substitutedShare > 0.6 || quality.some((w) => w.code === 1001);
  return assemble({ config, text, units, prosody: pros, quality, noEvidence, durationSec: audio.durationSec, versions });
}

/**
 * What the whole band's checks read and change: the recording's spectra, the characters'
 * alignment and expected syllables, what was heard of each and the competition's judgements
 * (both changed in place), the characters the second look put back (`fixed`: reduced, or
 * another syllable already), which the classifiers leave alone, and those kept as read over the
 * heard syllable's alignment (`heardAsWritten`), which they have judged already.
 */
interface WholeBand {
  spectra: () => readonly Float32Array[];
  table: SyllableTable;
  models: PartModels;
  syllables: readonly (AlignedSyllable | null)[];
  labels: readonly string[];
  heardLabels: string[];
  comps: (Competition | null)[];
  fixed: ReadonlySet<number>;
  heardAsWritten: Set<number>;
  slack: number;
}

/**
 * The competition's flags the whole band overrules (parts.ts), on wideband speech: a character
 * the competition judged substituted is kept as read when the classifiers hear both its
 * expected parts well (PART_SUPPORT), or when, with the syllable the competition heard aligned
 * in its place, they still hear the written syllable rather than that one (`writtenOverHeard`).
 * Done before `dropUnread`, which would otherwise take a short one of them for a character not
 * spoken.
 */
async function keepHeardAsRead(w: WholeBand, backend: AcousticBackend, pcm: Int16Array): Promise<void> {
  const threshold = substitutionThreshold(w.slack);
  const flagged = (k: number) => !w.fixed.has(k) && (w.comps[k]?.evidence ?? 0) > threshold;
  const heard = partsHeard(w.spectra, w.table, w.models, w.syllables, w.labels, flagged, w.slack);
  const doubtful = new Map([...heard].filter(([, h]) => h.support < PART_SUPPORT).map(([k]) => [k, w.comps[k]!.heard]));
  for (const k of await keptAsWritten(w, backend, pcm, doubtful)) w.heardAsWritten.add(k);
  for (const [k, h] of heard) {
    if (h.support < PART_SUPPORT && !w.heardAsWritten.has(k)) continue;
    w.comps[k] = null;
    w.heardLabels[k] = w.labels[k];
  }
}

/**
 * Initials and finals not said (parts.ts), on wideband speech, in a voice the classifiers know
 * well enough (FAMILIAR_SUPPORT): a character the competition left as read is judged
 * substituted when they do not hear one of its expected parts, with the syllable they hear,
 * unless with that syllable aligned in its place they still hear the written one
 * (`writtenOverHeard`).
 */
async function judgeParts(w: WholeBand, backend: AcousticBackend, pcm: Int16Array): Promise<void> {
  const threshold = substitutionThreshold(w.slack);
  const heard = partsHeard(w.spectra, w.table, w.models, w.syllables, w.labels, (k) => !w.fixed.has(k) && !w.heardAsWritten.has(k), w.slack);
  if (!familiarVoice(heard)) return;
  const others = new Map<number, string>();
  for (const [k, h] of heard) if (h.heard && (w.comps[k]?.evidence ?? 0) <= threshold) others.set(k, h.heard);
  for (const k of await keptAsWritten(w, backend, pcm, others)) others.delete(k);
  for (const k of await heardOnOwnFrames(w, backend, pcm, [...others.keys()])) others.delete(k);
  markHeard(others, w.heardLabels, w.comps, threshold);
}

/** Frames as loud as speech between a syllable's initial and final from which its onset is read again (heardInOnsets; lenient slack raises it by half per unit). */
const ONSET_GAP_LOUD = 5;

/**
 * Characters still read whose onset holds speech the model left to silence: the phone pass put
 * ONSET_GAP_LOUD frames or more as loud as speech between the initial and the final (the
 * 8 kHz model cannot explain a fricative whose noise lies above 4 kHz with the initial given,
 * and squeezes that initial beside a silence), neither neighbour skipped or heard as another
 * syllable (a neighbour's speech left over), and the initial classifier, over the whole onset,
 * hearing another initial (parts.ts `onsetHeard`): character → the syllable heard.
 */
function heardInOnsets(w: WholeBand, pcm: Int16Array): Map<number, string> {
  const threshold = substitutionThreshold(w.slack);
  const loudNeeded = Math.round(ONSET_GAP_LOUD * (1 + 0.5 * w.slack));
  const flagged = (j: number) => j >= 0 && j < w.labels.length && (!w.syllables[j] || (w.comps[j]?.evidence ?? 0) > threshold);
  const levels = frameLevels(pcm);
  const out = new Map<number, string>();
  w.syllables.forEach((s, k) => {
    if (!s || s.phones.length < 2 || w.fixed.has(k) || w.heardAsWritten.has(k) || flagged(k) || flagged(k - 1) || flagged(k + 1)) return;
    const gap = { startFrame: s.phones[0].endFrame, endFrame: s.phones[s.phones.length - 1].startFrame };
    if (loudFrames(levels, [gap]) < loudNeeded) return;
    const heard = onsetHeard(w.spectra, w.table, w.models, s.phones, w.labels[k]);
    if (heard) out.set(k, heard);
  });
  return out;
}

/**
 * Of characters `ks`, those beside a skipped character or beside one heard as another syllable
 * whose expected parts the classifiers hear over the character's own frames: a character that
 * took a skipped neighbour's speech has that speech in the frames of its initial (neighbour
 * before) or final (neighbour after), and beside a wrong reference syllable the alignment
 * misplaces the boundary between the two. Beside a skipped character the speech is
 * given a slot of its own; beside one heard as another syllable, that syllable is put in the
 * neighbour's place (context.ts `phonesAs`). The decodes are independent and issued together.
 */
async function heardOnOwnFrames(w: WholeBand, backend: AcousticBackend, pcm: Int16Array, ks: readonly number[]): Promise<number[]> {
  const skipped = (j: number) => j >= 0 && j < w.labels.length && !w.syllables[j];
  const heardOther = heardAsOther(w.table, w.syllables, w.labels, w.heardLabels, w.comps, substitutionThreshold(w.slack));
  const context = (k: number) => w.heardLabels.map((h, j) => (j === k ? w.labels[k] : h));
  const looks = ks.flatMap((k): { k: number; free: -1 | 0 | 1 }[] => {
    const sides = ([-1, 1] as const).filter((side) => skipped(k + side));
    if (sides.length > 0) return sides.map((free) => ({ k, free }));
    return heardOther(k - 1) || heardOther(k + 1) ? [{ k, free: 0 }] : [];
  });
  const found = await Promise.all(looks.map(({ k, free }) => phonesAs(backend, w.table, pcm, w.syllables, context(k), k, w.labels[k], free)));
  return [...new Set(looks.flatMap(({ k }, i) => {
    const phones = found[i];
    if (!phones) return [];
    const view = w.syllables.map((s, j) => (j === k ? { ...s!, phones } : s));
    const h = partsHeard(w.spectra, w.table, w.models, view, w.labels, (j) => j === k, w.slack).get(k);
    return h && h.heard === null ? [k] : [];
  }))];
}

/**
 * Of the characters in `found` (character → syllable heard there), those the classifiers still
 * hear as written with the heard syllable aligned in their place (parts.ts `writtenOverHeard`).
 * The alignments are independent and issued together.
 */
async function keptAsWritten(w: WholeBand, backend: AcousticBackend, pcm: Int16Array, found: ReadonlyMap<number, string>): Promise<number[]> {
  const entries = [...found];
  const realigned = await Promise.all(entries.map(([k, heard]) => phonesAs(backend, w.table, pcm, w.syllables, w.heardLabels, k, heard)));
  return entries.flatMap(([k, heard], i) => {
    const phones = realigned[i];
    return phones && writtenOverHeard(w.spectra, w.table, w.models, phones, w.labels[k], heard) ? [k] : [];
  });
}

/**
 * Characters a check beside the competition found read as another syllable: judged
 * substituted with that syllable heard, as strongly as a character put back as another
 * syllable (twice the substitution threshold), unless the competition judged them already.
 */
function markHeard(found: ReadonlyMap<number, string>, heardLabels: string[], comps: (Competition | null)[], threshold: number): void {
  for (const [k, heard] of found) {
    if ((comps[k]?.evidence ?? 0) > threshold) continue;
    comps[k] = { heard, evidence: 2 * threshold };
    heardLabels[k] = heard;
  }
}

/**
 * Competition for every aligned character whose worst phone is not clearly good (see
 * CALIBRATION.COMPETE_GOP), then once more for the neighbours of characters judged
 * substituted, with the substituted neighbour set to what was heard (its frames no longer
 * pretend to be the reference syllable, which otherwise drags the neighbours down). The
 * window decodes of one round are independent and issued together, so a pooled backend
 * spreads them over its threads.
 */
export async function competeAll(
  backend: AcousticBackend,
  table: SyllableTable,
  pcm: Int16Array,
  al: ReadingAlignment,
  labels: string[],
  slack: number,
  recovered: { others: ReadonlyMap<number, string>; reduced: ReadonlySet<number> } = { others: new Map(), reduced: new Set() },
): Promise<(Competition | null)[]> {
  const threshold = substitutionThreshold(slack);
  // Reduced syllables put back by recoverAll are too short to judge or to serve as context; one
  // put back at a syllable's normal length is judged as any other.
  const normal = CALIBRATION.SKIP_DROP_SYLLABLES * medianSyllableFrames(al);
  const shorter = (s: AlignedSyllable | null) => !s || s.endFrame - s.startFrame < normal;
  const reduced = new Set([...recovered.reduced].filter((k) => shorter(al.syllables[k])));
  const view = al.syllables.map((s, k) => (reduced.has(k) ? null : s));
  // `context[k]` is the reference the character is judged against, the rest its neighbours' syllables.
  const judge = async (k: number, context: readonly string[] = labels) =>
    needsCompetition(view[k]) ? compete(backend, table, pcm, view, context, k, al.loop) : { heard: context[k], evidence: 0 };
  const out: (Competition | null)[] = await Promise.all(
    labels.map((_, k) => {
      // Recovered as another syllable: evidence set to twice the threshold (caps pronunciation at 34).
      const other = recovered.others.get(k);
      if (other !== undefined) return { heard: other, evidence: 2 * threshold };
      if (reduced.has(k)) return { heard: labels[k], evidence: 0 };
      return judge(k);
    }),
  );
  const flagged = out.flatMap((c, k) => (c && c.evidence > threshold ? [k] : []));
  if (flagged.length === 0) return out;
  // Neighbours of a flagged character are judged again with it set to what was heard, flagged
  // ones too: two neighbours flagged together are often one substitution whose wrong reference,
  // fixed in the other's window, made the other look substituted.
  const again = [...new Set(flagged.flatMap((k) => [k - 1, k + 1]))].filter((k) => k >= 0 && k < labels.length && !reduced.has(k));
  const reference = [...labels];
  for (const k of flagged) labels[k] = out[k]!.heard;
  // Each against its own reference, beside what was heard in its neighbours.
  const second = await Promise.all(again.map((k) => judge(k, labels.map((l, j) => (j === k ? reference[k] : l)))));
  again.forEach((k, i) => {
    out[k] = second[i];
    if (!(second[i] && second[i]!.evidence > threshold)) labels[k] = reference[k];
  });
  return out;
}

/** Whether a syllable's phones leave room for another syllable (some phone below COMPETE_GOP). */
function needsCompetition(s: AlignedSyllable | null): boolean {
  if (!s) return true;
  const worst = worstGop(s);
  return worst === null || worst < CALIBRATION.COMPETE_GOP;
}

/**
 * Gives skipped characters a second look (context.ts recoverSkipped): reduced ones are put back
 * into the alignment, ones read as another syllable are returned with what was heard. Squeezed
 * syllables (align.ts `squeezed`) are taken out first and get the same look.
 */
async function recoverAll(
  backend: AcousticBackend,
  table: SyllableTable,
  pcm: Int16Array,
  al: ReadingAlignment,
  labels: readonly string[],
  slack: number,
): Promise<{ others: Map<number, string>; reduced: Set<number> }> {
  const others = new Map<number, string>();
  const reduced = new Set<number>();
  const limits = readLimits(al, slack);
  for (const [k, s] of al.syllables.entries()) if (s && squeezed(s)) al.syllables[k] = null;
  // Two or more consecutive characters left out are a skipped stretch: the second look judges one
  // character between read neighbours and would force one of them into a neighbour's frames.
  const out = al.syllables.map((s, k) => !s && al.modelled[k]);
  const inStretch = (k: number) => (k > 0 && out[k - 1]) || (k + 1 < out.length && out[k + 1]);
  for (let k = 0; k < labels.length; k++) {
    if (al.syllables[k] || !al.modelled[k]) continue;
    if (inStretch(k)) continue;
    const r = await recoverSkipped(backend, table, pcm, al.syllables, labels, k, limits);
    if (r.status === 'skipped' || !r.syllable) continue;
    al.syllables[k] = r.syllable;
    // A recovered syllable takes its frames back from the neighbours that had absorbed them.
    clipBetween(al.syllables, nearest(al.syllables, k, -1), nearest(al.syllables, k, 1), r.syllable);
    if (r.status === 'other' && r.heard && !table.same(r.heard, labels[k])) others.set(k, r.heard);
    else reduced.add(k);
  }
  return { others, reduced };
}

/**
 * The second looks made once every check has judged (`heardLabels` and `comps` changed in
 * place). A character put back is judged by its phones alone, like the characters the first
 * look put back.
 * - A single skipped character beside one heard as another syllable is looked at again with
 *   that neighbour as heard: a wrong reference syllable often takes a said neighbour's frames
 *   along with its own, and the first look (recoverAll), made with the wrong reference beside
 *   it, finds no room for the neighbour. Only a character put back as read counts (a said
 *   neighbour is the case looked for).
 * - Then a stretch of exactly two skipped characters between aligned neighbours (context.ts
 *   recoverInPair): a substituted character the alignment left out often takes a said
 *   neighbour with it. The one found read is put back; the other stays skipped.
 * - Then a run of four or more skipped characters (context.ts alignRun): aligned again with
 *   every one of them required, those that fit their frames well are read when all but one of
 *   the run do (CALIBRATION.RUN_READ_GOP): the alignment sometimes leaves out a whole phrase
 *   beside a substituted character.
 * The looks of each kind are independent and issued together.
 */
async function recoverAfterJudging(
  backend: AcousticBackend,
  table: SyllableTable,
  pcm: Int16Array,
  al: ReadingAlignment,
  labels: readonly string[],
  heardLabels: string[],
  comps: (Competition | null)[],
  slack: number,
): Promise<void> {
  const putBack = (k: number, syllable: AlignedSyllable) => {
    const prev = nearest(al.syllables, k, -1);
    const next = nearest(al.syllables, k, 1);
    if (!fitsBetween(al.syllables, prev, next, syllable)) return;
    al.syllables[k] = syllable;
    clipBetween(al.syllables, prev, next, syllable);
    comps[k] = null;
    heardLabels[k] = labels[k];
  };
  // The syllables a look is made with: what was heard, the characters looked at as written.
  const asHeard = (...ks: number[]) => heardLabels.map((h, j) => (ks.includes(j) ? labels[j] : h));
  const inside = (j: number) => j >= 0 && j < labels.length;
  const left = (j: number) => inside(j) && !al.syllables[j] && al.modelled[j];
  const heardOther = heardAsOther(table, al.syllables, labels, heardLabels, comps, substitutionThreshold(slack));
  const beside = labels.flatMap((_, k) => (left(k) && !left(k - 1) && !left(k + 1) && (heardOther(k - 1) || heardOther(k + 1)) ? [k] : []));
  const besideLimits = { ...readLimits(al, slack), readLoss: CALIBRATION.BESIDE_READ_LOSS + CALIBRATION.SLACK_FACTOR * slack };
  const looks = await Promise.all(beside.map((k) => recoverSkipped(backend, table, pcm, al.syllables, asHeard(k), k, besideLimits)));
  beside.forEach((k, i) => {
    const r = looks[i];
    if (r.status === 'read' && r.syllable) putBack(k, r.syllable);
  });
  // Stretches of skipped characters, each its first character and its length. Putting back one
  // of a pair leaves no stretch of four, so one listing serves both looks.
  const stretches = labels.flatMap((_, k) => {
    if (!inside(k) || al.syllables[k] || (inside(k - 1) && !al.syllables[k - 1])) return [];
    let m = 1;
    while (inside(k + m) && !al.syllables[k + m]) m++;
    return [{ k, m }];
  });
  const charsOf = ({ k, m }: { k: number; m: number }) => Array.from({ length: m }, (_, i) => k + i);
  const median = medianSyllableFrames(al);
  const pairLimits = {
    readGain: CALIBRATION.PAIR_READ_GAIN - CALIBRATION.SLACK_FACTOR * slack,
    readFrames: (CALIBRATION.SKIP_READ_SYLLABLES * median) / (1 + CALIBRATION.SLACK_FACTOR * slack),
    otherFrames: CALIBRATION.PAIR_OTHER_SYLLABLES * median,
    keepFrames: CALIBRATION.PAIR_KEEP_SYLLABLES * median,
  };
  // Stretches of exactly two; recoverInPair looks between aligned neighbours, or beside one at the start or end.
  const pairs = stretches.filter(({ m }) => m === 2);
  const found = await Promise.all(pairs.map((x) => recoverInPair(backend, table, pcm, al.syllables, asHeard(...charsOf(x)), x.k, pairLimits)));
  for (const r of found) if (r) putBack(r.k, r.syllable);
  // Runs of four or more: aligned again with every character required; the characters that fit
  // their frames well there are read when all but one of the run do.
  const runs = stretches.filter(({ m }) => m >= CALIBRATION.RUN_MIN_CHARACTERS);
  const realigned = await Promise.all(runs.map((x) => alignRun(backend, table, pcm, al.syllables, asHeard(...charsOf(x)), x.k, x.m)));
  const readGop = CALIBRATION.RUN_READ_GOP - CALIBRATION.SLACK_FACTOR * slack;
  runs.forEach(({ k, m }, i) => {
    const syllables = realigned[i];
    if (!syllables) return;
    const fits = syllables.map((x) => x.endFrame - x.startFrame >= pairLimits.readFrames && (frameWeightedGop(x.phones) ?? -Infinity) >= readGop);
    if (fits.filter(Boolean).length >= m - 1) syllables.forEach((x, j) => {
      if (fits[j]) putBack(k + j, x);
    });
  });
}

/**
 * Whether character j is aligned and judged substituted (competition evidence over
 * `threshold`) with another syllable heard; false outside the text.
 */
function heardAsOther(
  table: SyllableTable,
  syllables: readonly (AlignedSyllable | null)[],
  labels: readonly string[],
  heardLabels: readonly string[],
  comps: readonly (Competition | null)[],
  threshold: number,
): (j: number) => boolean {
  return (j) => j >= 0 && j < labels.length && syllables[j] !== null && (comps[j]?.evidence ?? 0) > threshold && !table.same(heardLabels[j], labels[j]);
}

/**
 * What a character must show to count as read (context.ts recoverSkipped): forcing it into the
 * window between its neighbours lowers the cost by `readLoss` nats per frame, with at least
 * `readFrames` frames; `otherGain` is what a free syllable must gain to count as another one.
 */
function readLimits(al: ReadingAlignment, slack: number): { readLoss: number; otherGain: number; readFrames: number } {
  const f = 1 + CALIBRATION.SLACK_FACTOR * slack;
  const readFrames = (CALIBRATION.SKIP_READ_SYLLABLES * medianSyllableFrames(al)) / f;
  return { readLoss: CALIBRATION.SKIP_READ_LOSS + CALIBRATION.SLACK_FACTOR * slack, otherGain: CALIBRATION.SKIP_OTHER_GAIN * f, readFrames };
}

/**
 * The second look the other way round, for short characters the competition judged substituted:
 * a character that was not spoken but aligned anyway takes part of a spoken neighbour's frames,
 * and another syllable is what those frames sound like. If it does not pass the test a skipped
 * character needs to count as read (readLimits), it is skipped. A substituted syllable of normal
 * length fails that test too (the reference fits its frames no better than the neighbours do),
 * hence the length condition (CALIBRATION.SKIP_DROP_SYLLABLES). Correct readings rarely have
 * such characters, so they cost nothing more; the decodes are independent and issued together. `labels` is the reference, `heard` the syllables after the competition.
 * Returns the characters skipped.
 */
async function dropUnread(
  backend: AcousticBackend,
  table: SyllableTable,
  pcm: Int16Array,
  al: ReadingAlignment,
  labels: readonly string[],
  heard: readonly string[],
  comps: (Competition | null)[],
  slack: number,
  others: ReadonlyMap<number, string>,
): Promise<number[]> {
  const threshold = substitutionThreshold(slack);
  const limits = readLimits(al, slack);
  const short = CALIBRATION.SKIP_DROP_SYLLABLES * medianSyllableFrames(al);
  const suspects = comps.flatMap((c, k) => {
    const s = al.syllables[k];
    return c && s && c.evidence > threshold && !others.has(k) && s.endFrame - s.startFrame < short ? [k] : [];
  });
  const looks = await Promise.all(suspects.map((k) => presence(backend, table, pcm, al.syllables, heard.map((h, j) => (j === k ? labels[j] : h)), k)));
  return suspects.filter((k, i) => {
    const p = looks[i];
    if (!p || (p.loss < limits.readLoss && p.frames >= limits.readFrames)) return false;
    al.syllables[k] = null;
    comps[k] = null;
    return true;
  });
}

/**
 * Inserted speech after each aligned character (see context.ts). The pairs are independent
 * and checked concurrently.
 */
export async function insertionsOf(backend: AcousticBackend, table: SyllableTable, pcm: Int16Array, al: ReadingAlignment, labels: readonly string[], slack = 0): Promise<Insertion[]> {
  const present = al.syllables.flatMap((s, k) => (s ? [k] : []));
  if (present.length < 2) return [];
  const median = medianSyllableFrames(al);
  const levels = frameLevels(pcm);
  const pairs = present.slice(0, -1).filter((k, j) => {
    const a = al.syllables[k]!;
    const b = al.syllables[present[j + 1]]!;
    const [da, db] = [a.endFrame - a.startFrame, b.endFrame - b.startFrame];
    if (da + db < CALIBRATION.INSERTION_GAP_SYLLABLES * median) return false;
    // Inserted speech is either between the two (silence and filler units of the alignment,
    // then as loud as speech, unlike a pause) or inside one of them, which is then overlong.
    const gap = [{ startFrame: a.endFrame, endFrame: b.startFrame }];
    return loudFrames(levels, gap) >= CALIBRATION.INSERTION_LOUD_FRAMES || Math.max(da, db) >= CALIBRATION.INSERTION_LONG_SYLLABLES * median;
  });
  const found = await Promise.all(
    pairs.map(async (k): Promise<Insertion | null> => {
      const garbage = await insertedFrames(backend, table, pcm, al.syllables, labels, k);
      if (!acceptInsertion(garbage.frames, slack)) return null;
      const named = await findInsertion(backend, table, pcm, al.syllables, labels, k);
      // The garbage loop found speech; the free syllables name it (one unnamed syllable if they cannot).
      return named ?? { after: k, syllables: [{ syllable: '', startFrame: garbage.startFrame, endFrame: garbage.endFrame }], evidence: 0 };
    }),
  );
  return found.filter((x): x is Insertion => x !== null);
}

function timedSyllables(text: ZhText, al: ReadingAlignment, pcm: Int16Array): { list: TimedSyllable[]; index: Map<number, number> } {
  const present = al.syllables.flatMap((s, k) => (s ? [k] : []));
  const index = new Map(present.map((k, j) => [k, j]));
  const lastOfSentence = new Map<number, number>();
  present.forEach((k) => lastOfSentence.set(text.tokens[text.read[k]].sentence, k));
  const questions = new Set(text.sentences.filter((s) => /[?？]/.test(s.text)).map((s) => s.index));
  const list = present.map((k, j) => {
    const s = al.syllables[k]!;
    const next = j + 1 < present.length ? al.syllables[present[j + 1]]! : null;
    const t = text.tokens[text.read[k]];
    return {
      startFrame: s.startFrame,
      endFrame: s.endFrame,
      clause: t.clause,
      sentence: t.sentence,
      word: text.source.chars[k].word,
      gapAfter: next ? Math.max(0, next.startFrame - s.endFrame) : 0,
      energyDb: energyDb(pcm, s.startFrame, s.endFrame),
      question: lastOfSentence.get(t.sentence) === k && questions.has(t.sentence),
    };
  });
  return { list, index };
}
