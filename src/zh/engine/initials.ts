/**
 * Initials heard as another initial, from the spectrum of the whole band (src/zh/initial): the
 * acoustic model hears only up to 4 kHz and often takes a changed initial for the reference
 * (xiu for jiu, ben for deng) where its competition (context.ts) gains too little on the
 * initial's few frames. A classifier trained on native onsets gives each read character a
 * posterior over the initials; a character whose expected initial holds less than
 * INITIAL_POSTERIOR is judged substituted, heard as the most probable initial that spells a
 * syllable with its final. Only wideband speech is judged (the classifier reads 4–8 kHz).
 */
import type { AlignedSyllable } from './align.js';
import type { SyllableTable } from './syllables.js';
import { melSpectra, onsetFeatures } from '../initial/features.js';
import { classifyInitial, INITIAL_CLASSES, type InitialModel } from '../initial/classifier.js';

/**
 * Posterior under which an expected initial counts as not said. Measured by
 * tools/train-initial-zh.ts on held-out S0150 utterances (docs/mandarin-engine.md, "Initials
 * heard"). Slack divides it by ten per unit (lenient: fewer flags).
 */
export const INITIAL_POSTERIOR = 1e-3;

/**
 * Characters whose initial was heard as another, with the syllable heard (that initial and the
 * same final). `labels[k]` is the expected toneless syllable of character k, `syllables[k]` its
 * alignment (null: not aligned); `judge(k)` says which characters to look at.
 */
export function otherInitials(
  pcm: Int16Array,
  table: SyllableTable,
  model: InitialModel,
  syllables: readonly (AlignedSyllable | null)[],
  labels: readonly string[],
  judge: (k: number) => boolean,
  slack = 0,
): Map<number, string> {
  const out = new Map<number, string>();
  const threshold = INITIAL_POSTERIOR * 10 ** -slack;
  let spectra: Float32Array[] | null = null;
  syllables.forEach((s, k) => {
    const expected = (INITIAL_CLASSES as readonly string[]).indexOf(table.initialOf(labels[k]));
    if (!s || expected < 0 || !judge(k)) return;
    spectra ??= melSpectra(pcm);
    const x = onsetFeatures(spectra, s.phones);
    if (!x) return;
    const p = classifyInitial(model, x);
    if (p[expected] >= threshold) return;
    const final = table.finalOf(labels[k]);
    let heard: string | null = null;
    let best = p[expected];
    INITIAL_CLASSES.forEach((initial, c) => {
      const syllable = initial + final;
      if (p[c] > best && table.prons.has(syllable) && !table.same(syllable, labels[k])) {
        best = p[c];
        heard = syllable;
      }
    });
    if (heard) out.set(k, heard);
  });
  return out;
}
