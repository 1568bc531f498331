/**
 * An in-process AcousticBackend over the synchronous PocketSphinx engine, for tools,
 * benchmarks and tests that run the English engine without the service's worker pool.
 * Alignment, phone loop and lexicon are the engine's own; free recognition and real-time
 * progress belong to the pool backend and are not offered here.
 */
import { SphinxEngine } from '../../acoustic/sphinx/engine.js';
import { loadDictionary, type LoadedLexicon } from '../../acoustic/lexicon.js';
import { resolveModels } from '../../models.js';
import type { AcousticBackend, AcousticLang, AlignOptions, AlignResult, GrammarSpec, Lexicon, PhoneSegment } from '../../acoustic/types.js';

export function createInProcessEnglishBackend(modelsDir: string): AcousticBackend {
  const engine = SphinxEngine.create(modelsDir, ['en']);
  let lexicon: LoadedLexicon | null = null;
  return {
    async align(lang: AcousticLang, pcm: Int16Array, grammar: GrammarSpec, opts?: AlignOptions): Promise<AlignResult> {
      return engine.align(lang, pcm, grammar, opts);
    },
    async phoneLoop(lang, pcm, opts): Promise<PhoneSegment[]> {
      return engine.phoneLoop(lang, pcm, opts);
    },
    async recognize() {
      throw new Error('free recognition is served by the pool backend, not the in-process English backend');
    },
    openProgress() {
      throw new Error('real-time progress is served by the pool backend, not the in-process English backend');
    },
    lexicon(lang: AcousticLang): Lexicon {
      if (lang !== 'en') throw new Error('the in-process English backend has only the English model');
      lexicon ??= loadDictionary(resolveModels(modelsDir).en.dict, 'en');
      return lexicon;
    },
    async close() {
      engine.close();
    },
  };
}
