/**
 * An AcousticBackend over a SphinxEngine in the calling thread, for tools, benchmarks and tests
 * that run the engine without the worker pool. Recognition and real-time progress are not part
 * of read-aloud scoring and are left to the pooled backend.
 */
import { loadDictionary } from '../../acoustic/lexicon.js';
import { SphinxEngine } from '../../acoustic/sphinx/engine.js';
import type { AcousticBackend, Lexicon } from '../../acoustic/types.js';
import { resolveModels } from '../../models.js';

export function createLocalBackend(modelsDir: string): AcousticBackend {
  const engine = SphinxEngine.create(modelsDir, ['zh']);
  let zhLexicon: Lexicon | null = null;
  return {
    align: async (lang, pcm, grammar, opts) => engine.align(lang, pcm, grammar, opts),
    phoneLoop: async (lang, pcm, opts) => engine.phoneLoop(lang, pcm, opts),
    recognize: async () => {
      throw new Error('recognition is not available in the local read-aloud backend');
    },
    openProgress: () => {
      throw new Error('real-time progress is not available in the local read-aloud backend');
    },
    lexicon(lang) {
      if (lang !== 'zh') throw new Error('the local backend loads the Mandarin model only');
      zhLexicon ??= loadDictionary(resolveModels(modelsDir).zh.dict, 'zh');
      return zhLexicon;
    },
    close: async () => engine.close(),
  };
}
