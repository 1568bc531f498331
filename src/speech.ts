/**
 * The speech engines the routes use, created once and kept: the acoustic backend (decoders in
 * worker threads) and the synthesis service (engines in worker threads). Both are created on
 * first use; the server warms them at start-up, with the Mandarin word segmenter's dictionary,
 * so `/readyz` turns ready only once the models are loaded, while tests that never touch speech
 * never pay for them.
 */
import { createAcousticBackend } from './acoustic/backend.js';
import type { AcousticBackend } from './acoustic/types.js';
import type { Config } from './config.js';
import { createSynthesisService, type SynthesisService } from './synthesis/service.js';
import { loadWordSegmenter } from './zh/text/index.js';

export interface SpeechServices {
  acoustic(): Promise<AcousticBackend>;
  synthesis(): SynthesisService;
  /** Loads every engine now (start-up); resolves when all models are loaded. */
  warm(): Promise<void>;
  close(): Promise<void>;
}

export function createSpeechServices(config: Config): SpeechServices {
  let acoustic: Promise<AcousticBackend> | null = null;
  let synthesis: SynthesisService | null = null;
  const services: SpeechServices = {
    acoustic() {
      acoustic ??= createAcousticBackend(config);
      return acoustic;
    },
    synthesis() {
      synthesis ??= createSynthesisService(config);
      return synthesis;
    },
    async warm() {
      loadWordSegmenter();
      await Promise.all([services.acoustic(), services.synthesis().warm()]);
    },
    async close() {
      const pending = acoustic;
      acoustic = null;
      await Promise.all([pending?.then((b) => b.close(), () => undefined), synthesis?.close()]);
      synthesis = null;
    },
  };
  return services;
}
