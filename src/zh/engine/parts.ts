/**
 * Initials and finals heard as others, from the spectrum of the whole band (src/zh/parts): the
 * acoustic model hears only up to 4 kHz and often takes a changed initial or final for the
 * reference (xiu for jiu, ben for deng) where its competition (context.ts) gains too little to
 * cross its threshold. Classifiers trained on native speech give each read character a posterior
 * over the initials and one over the finals; a character one of whose expected parts holds less
 * than PART_POSTERIOR is judged substituted, heard as the most probable syllable that changes
 * only the parts judged so (engine.ts `judgeParts`); one the competition judged substituted
 * whose expected parts both hold PART_SUPPORT or more is kept as read (engine.ts
 * `keepHeardAsRead`). A flag of either, the competition's or the classifiers', is also overruled
 * when, with the syllable heard aligned in the character's place, the classifiers still hear the
 * written one (`writtenOverHeard`). Only wideband speech is judged (the classifiers read 4–8 kHz).
 */
import type { AlignedSyllable } from './align.js';
import type { SyllableTable } from './syllables.js';
import { melSpectra } from '../../dsp/mel-segments.js';
import { onsetFeatures, partFeatures, type SyllablePart } from '../parts/features.js';
import { classifyPart, type PartModel } from '../parts/classifier.js';

/**
 * Posterior under which an expected part counts as not said: on held-out S0150 utterances
 * (tools/train-part-zh.ts) 0.6% of read initials and 0.4% of read finals fall under it, and
 * 80% and 76% of the initials and finals the validity protocol substitutes. Chosen with
 * PART_SUPPORT by `npm run validity:zh` on the held-out half (docs/mandarin-engine.md,
 * "Initials and finals heard from the whole band"). Slack divides it by ten per unit (lenient:
 * fewer flags).
 */
export const PART_POSTERIOR: Readonly<Record<SyllablePart, number>> = { initial: 3e-3, final: 3e-3 };

/**
 * Support at or over which a character the competition judged substituted is kept as read:
 * both its expected initial and final hold at least this posterior. The competition's false
 * flags are mostly characters the 8 kHz model fits poorly, whose parts the whole band still
 * shows as expected; on a voice the acoustic model fits less well they are more (S0150 rendered
 * higher: 193 of 5,985 correct characters against 51, counted once by a variant of the engine)
 * and the classifiers' posteriors flatter.
 * 0.2 had the best recall on the held-out half (docs/mandarin-engine.md, "Thresholds"); 0.1
 * keeps a point of recall less there for fewer false flags on every voice measured, and brings
 * the higher rendering's false rejections under the 5% target ("Later: a lower bar for keeping
 * the competition's flags as read"). Slack does not move it.
 */
export const PART_SUPPORT = 0.1;

/**
 * The classifiers read a part over the frames the alignment gives it, and a substituted
 * character is aligned to phones that were not said, so the part they read starts and ends
 * elsewhere (docs/mandarin-engine.md, "where the substitutions still missed escape"). A
 * character judged substituted (by the competition, or by the classifiers themselves) is
 * therefore also read with the syllable heard there aligned in its place: when the written
 * syllable's parts are still more probable there than the heard one's, and hold at least
 * WRITTEN_FLOOR, it is kept as read. Chosen on the competition's flags of the substitution cases
 * and the correct readings, logged by a variant of the engine (docs/mandarin-engine.md, "Later:
 * the heard syllable's own alignment").
 */
export const WRITTEN_FLOOR = 0.01;

/**
 * The classifiers know one speaker, read through frequency warps. On a voice they know less
 * well every posterior is flatter, and parts fall under PART_POSTERIOR without being misread:
 * the reading's median support (most characters of a reading are read right) says how well.
 * Parts are judged not said only in readings of at least FAMILIAR_CHARACTERS judged characters
 * whose median support is at least FAMILIAR_SUPPORT. Measured once by a script not kept
 * (docs/mandarin-engine.md, "A voice the classifiers do not know"): S0150's held-out readings
 * 0.17 at the least, 0.40 at the 10th percentile; rendered higher 0.21 at the 10th percentile;
 * another AISHELL speaker (S0764) 0.37; the recorded syllables of the Ekho voices, concatenated,
 * 0.15 and 0.17, where parts of 4 of 20 correct characters fell under PART_POSTERIOR.
 */
export const FAMILIAR_SUPPORT = 0.25;
export const FAMILIAR_CHARACTERS = 4;

/** Whether the classifiers know the reader's voice well enough to judge parts not said (see FAMILIAR_SUPPORT). */
export function familiarVoice(heard: ReadonlyMap<number, PartsHeard>): boolean {
  const support = [...heard.values()].map((h) => h.support).sort((a, b) => a - b);
  return support.length >= FAMILIAR_CHARACTERS && support[Math.floor(support.length / 2)] >= FAMILIAR_SUPPORT;
}

export type PartModels = Readonly<Record<SyllablePart, PartModel>>;

const PARTS: readonly SyllablePart[] = ['initial', 'final'];

/** What the classifiers heard of a character. */
export interface PartsHeard {
  /** The smaller posterior of its expected initial and final (1 for a part not judged). */
  support: number;
  /** The syllable heard when one of its parts was not (under PART_POSTERIOR), else null. */
  heard: string | null;
}

/**
 * The recording's mel spectra (features.ts), computed on first use and then kept: the engine
 * asks the classifiers several times per reading (for the competition's flags, for every
 * character, over the heard syllables' alignments), on the same spectra.
 */
export function spectraOf(pcm: Int16Array): () => readonly Float32Array[] {
  let spectra: Float32Array[] | null = null;
  return () => (spectra ??= melSpectra(pcm));
}

/** A syllable's initial or final, as the classifiers name it. */
const partOf = (table: SyllableTable, syllable: string, part: SyllablePart) => (part === 'initial' ? table.initialOf(syllable) : table.finalOf(syllable));

/** Posterior of each class of a part read over a syllable's phones (null: no features). */
function posteriorOver(spectra: () => readonly Float32Array[], models: PartModels, phones: readonly { startFrame: number; endFrame: number }[], part: SyllablePart): Float64Array | null {
  const x = partFeatures(spectra(), phones, part);
  return x ? classifyPart(models[part], x) : null;
}

/**
 * Whether, over `phones` (the syllable the competition heard, aligned in a character's place:
 * context.ts `phonesAs`), the written syllable's parts are more probable than the heard one's
 * and hold at least WRITTEN_FLOOR (a support is the smaller posterior of a syllable's initial and
 * final; a part the classifiers do not know counts 1).
 */
export function writtenOverHeard(
  spectra: () => readonly Float32Array[],
  table: SyllableTable,
  models: PartModels,
  phones: readonly { startFrame: number; endFrame: number }[],
  written: string,
  heard: string,
): boolean {
  const support = { written: 1, heard: 1 };
  for (const part of PARTS) {
    const p = posteriorOver(spectra, models, phones, part);
    if (!p) return false;
    const [w, h] = [written, heard].map((syllable) => models[part].classes.indexOf(partOf(table, syllable, part)));
    if (w >= 0) support.written = Math.min(support.written, p[w]);
    if (h >= 0) support.heard = Math.min(support.heard, p[h]);
  }
  return support.written >= WRITTEN_FLOOR && support.written > support.heard;
}

/**
 * What the classifiers heard of each character `judge(k)` asks about. `spectra` gives the
 * recording's mel spectra (`spectraOf`), `labels[k]` the expected toneless syllable of
 * character k, `syllables[k]` its alignment (null: not aligned).
 */
export function partsHeard(
  spectra: () => readonly Float32Array[],
  table: SyllableTable,
  models: PartModels,
  syllables: readonly (AlignedSyllable | null)[],
  labels: readonly string[],
  judge: (k: number) => boolean,
  slack = 0,
): Map<number, PartsHeard> {
  const out = new Map<number, PartsHeard>();
  syllables.forEach((s, k) => {
    if (!s || !judge(k)) return;
    const expected: Record<SyllablePart, string> = { initial: partOf(table, labels[k], 'initial'), final: partOf(table, labels[k], 'final') };
    let support = 1;
    // Per part: the classes it may be heard as, with their posteriors (the expected one alone when it holds enough).
    const options = PARTS.map((part) => {
      const model = models[part];
      const c = model.classes.indexOf(expected[part]);
      const p = c < 0 ? null : posteriorOver(spectra, models, s.phones, part);
      if (p) support = Math.min(support, p[c]);
      if (!p || p[c] >= PART_POSTERIOR[part] * 10 ** -slack) return [{ text: expected[part], p: 1 }];
      return model.classes.map((text, i) => ({ text, p: p[i] }));
    });
    out.set(k, { support, heard: mostProbableOther(table, labels[k], expected, options) });
  });
  return out;
}

/**
 * The most probable syllable the model can spell from the parts' options that is more probable
 * than the expected one (null when there is none, or when every part kept the expected option alone).
 */
function mostProbableOther(
  table: SyllableTable,
  label: string,
  expected: Record<SyllablePart, string>,
  options: readonly (readonly { text: string; p: number }[])[],
): string | null {
  if (options.every((o) => o.length === 1)) return null;
  let heard: string | null = null;
  let best = options.reduce((p, o, j) => p * o.find((x) => x.text === expected[PARTS[j]])!.p, 1);
  for (const i of options[0]) {
    for (const f of options[1]) {
      const syllable = i.text + f.text;
      if (i.p * f.p <= best || !table.prons.has(syllable) || table.same(syllable, label)) continue;
      best = i.p * f.p;
      heard = syllable;
    }
  }
  return heard;
}

/**
 * The initial heard over a syllable's whole onset (features.ts `onsetFeatures`), when that is
 * another initial than the expected one and the model spells it with the expected final: that
 * syllable, else null.
 */
export function onsetHeard(
  spectra: () => readonly Float32Array[],
  table: SyllableTable,
  models: PartModels,
  phones: readonly { startFrame: number; endFrame: number }[],
  label: string,
): string | null {
  const x = onsetFeatures(spectra(), phones);
  if (!x) return null;
  const p = classifyPart(models.initial, x);
  const initial = models.initial.classes[p.indexOf(Math.max(...p))];
  const syllable = initial + table.finalOf(label);
  return initial !== table.initialOf(label) && table.prons.has(syllable) && !table.same(syllable, label) ? syllable : null;
}
