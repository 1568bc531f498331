/**
 * Which engine scores which task, and the presenter that shapes its result:
 *   zh-CN word / sentence / passage / pinyin   → Mandarin engine  → read-aloud presenter
 *   en-US, en-GB word / sentence / passage / alpha → English engine → read-aloud presenter
 *   en-US connected                            → English engine   → connected-speech presenter
 *   open                                       → not in this version (50010)
 * Engines are created once, on first use, over the shared acoustic backend.
 */
import { presentReadAloud } from '../assessment/presenter.js';
import { createEnglishEngine, presentConnected, type EnglishEngine } from '../en/engine/index.js';
import type { SpeechServices } from '../speech.js';
import { createMandarinEngine, type MandarinEngine } from '../zh/engine/engine.js';
import { scoringDialect } from './compat.js';
import type { EvaluationConfig } from './config.js';
import { withCustomPinyin } from './custom-lexicon.js';
import type { KindScorer, ScoredEvaluation, ScorerRegistry } from './service.js';

const READ_ALOUD_ZH = new Set(['word', 'sentence', 'passage', 'pinyin']);
const READ_ALOUD_EN = new Set(['word', 'sentence', 'passage', 'alpha']);

export function createScorers(speech: SpeechServices, modelsDir: string): ScorerRegistry {
  let zh: Promise<MandarinEngine> | null = null;
  let en: Promise<EnglishEngine> | null = null;
  const mandarin = () => (zh ??= speech.acoustic().then((backend) => createMandarinEngine({ backend, modelsDir })));
  const english = () => (en ??= speech.acoustic().then((backend) => createEnglishEngine({ backend })));

  const timed = async <T>(stages: Record<string, number>, name: string, work: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    try {
      return await work();
    } finally {
      stages[name] = Math.round(performance.now() - start);
    }
  };

  const mandarinScorer: KindScorer = {
    async score({ config, audio, compat }) {
      const stages: Record<string, number> = {};
      const engine = await mandarin();
      const engineConfig = compat ? withCustomPinyin(config, compat.lexicon) : config;
      const assessment = await timed(stages, 'assess', () => engine.assess(engineConfig, audio));
      const body = presentReadAloud(assessment, config, { readtypeDiagnosis: compat?.readtypeDiagnosis });
      return { ...body, assessment, engineStages: stages } satisfies ScoredEvaluation;
    },
  };

  const englishScorer: KindScorer = {
    async score({ config, audio, compat }) {
      const stages: Record<string, number> = {};
      const engine = await english();
      // `.pro` kinds are scored in the dialect that keeps both varieties (scoringDialect); their
      // readtype-diagnosis default is settled in compat.ts, where an explicit 0 wins.
      const engineConfig: EvaluationConfig = { ...config, language: scoringDialect(config, compat) };
      const custom = compat?.lexicon ?? {};
      const assessment = await timed(stages, 'assess', () => engine.assess(engineConfig, audio, { customPronunciations: custom }));
      const body = presentReadAloud({ ...assessment, language: config.language }, config, { readtypeDiagnosis: compat?.readtypeDiagnosis });
      return { ...body, assessment, engineStages: stages } satisfies ScoredEvaluation;
    },
  };

  const connectedScorer: KindScorer = {
    async score({ config, audio }) {
      const stages: Record<string, number> = {};
      const engine = await english();
      const connected = await timed(stages, 'assess', () => engine.assessConnected(config, audio));
      const result = presentConnected(connected, config);
      const warning = (result.warning as unknown[] | undefined) ?? [];
      return { result, warnings: [...warning], assessment: connected, engineStages: stages };
    },
  };

  return (config) => {
    if (config.language === 'zh-CN' && READ_ALOUD_ZH.has(config.coreType)) return mandarinScorer;
    if (config.language !== 'zh-CN' && READ_ALOUD_EN.has(config.coreType)) return englishScorer;
    if (config.coreType === 'connected' && config.language === 'en-US') return connectedScorer;
    return null;
  };
}
