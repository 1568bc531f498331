/**
 * Initials and finals heard as others, from the spectrum of the whole band (src/zh/parts): the
 * acoustic model hears only up to 4 kHz and often takes a changed initial or final for the
 * reference (xiu for jiu, ben for deng) where its competition (context.ts) gains too little to
 * cross its threshold. Classifiers trained on native speech give each read character a posterior
 * over the initials and one over the finals; a character one of whose expected parts holds less
 * than PART_POSTERIOR is judged substituted, heard as the most probable syllable that changes
 * only the parts judged so. Only wideband speech is judged (the classifiers read 4–8 kHz).
 */
import type { AlignedSyllable } from './align.js';
import type { SyllableTable } from './syllables.js';
import { melSpectra, partFeatures, type SyllablePart } from '../parts/features.js';
import { classifyPart, type PartModel } from '../parts/classifier.js';

/**
 * Posterior under which an expected part counts as not said. Measured by tools/train-part-zh.ts
 * on held-out S0150 utterances (docs/mandarin-engine.md, "Initials and finals heard from the
 * whole band"). Slack divides it by ten per unit (lenient: fewer flags).
 */
export const PART_POSTERIOR: Readonly<Record<SyllablePart, number>> = { initial: 1e-3, final: 1e-3 };

export type PartModels = Readonly<Record<SyllablePart, PartModel>>;

const PARTS: readonly SyllablePart[] = ['initial', 'final'];

/**
 * Characters whose initial or final was heard as another, with the syllable heard.
 * `labels[k]` is the expected toneless syllable of character k, `syllables[k]` its alignment
 * (null: not aligned); `judge(k)` says which characters to look at.
 */
export function otherParts(
  pcm: Int16Array,
  table: SyllableTable,
  models: PartModels,
  syllables: readonly (AlignedSyllable | null)[],
  labels: readonly string[],
  judge: (k: number) => boolean,
  slack = 0,
): Map<number, string> {
  const out = new Map<number, string>();
  let spectra: Float32Array[] | null = null;
  syllables.forEach((s, k) => {
    if (!s || !judge(k)) return;
    spectra ??= melSpectra(pcm);
    const expected: Record<SyllablePart, string> = { initial: table.initialOf(labels[k]), final: table.finalOf(labels[k]) };
    // Per part: the classes it may be heard as, with their posteriors (the expected one alone when it holds enough).
    const options = PARTS.map((part) => {
      const model = models[part];
      const c = model.classes.indexOf(expected[part]);
      const x = c < 0 ? null : partFeatures(spectra!, s.phones, part);
      const p = x ? classifyPart(model, x) : null;
      if (!p || p[c] >= PART_POSTERIOR[part] * 10 ** -slack) return [{ text: expected[part], p: 1 }];
      return model.classes.map((text, i) => ({ text, p: p[i] }));
    });
    if (options.every((o) => o.length === 1)) return;
    // Heard: the most probable syllable the model can spell, and more probable than the expected one.
    let heard: string | null = null;
    let best = options.reduce((p, o, j) => p * o.find((x) => x.text === expected[PARTS[j]])!.p, 1);
    for (const i of options[0])
      for (const f of options[1]) {
        const syllable = i.text + f.text;
        if (i.p * f.p > best && table.prons.has(syllable) && !table.same(syllable, labels[k])) {
          best = i.p * f.p;
          heard = syllable;
        }
      }
    if (heard) out.set(k, heard);
  });
  return out;
}
