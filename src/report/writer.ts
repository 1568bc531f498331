/**
 * The evaluation service's ReportWriter (src/evaluation/service.ts). Template path by default;
 * model path when `llm.baseUrl` is configured, with the template as the fallback on any
 * failure (source `template-fallback`).
 *
 * Trial-tier cap of AI reports (spec 42902): counted per tenant per Beijing day, only when the
 * model path is configured (template reports are not AI reports and are never capped). A unit
 * is spent by `checkReportQuota`, or by `write` when it was not called for this input (an input
 * is counted once either way). The service spends it after everything else of the evaluation
 * has succeeded and before the model is called, so a call that fails earlier spends nothing,
 * and a refused call writes no record and meters nothing.
 * `write(…, { model: false })` writes the deterministic template report: no model call, no cap
 * (the compat layer keeps such a report in the record and never returns it).
 *
 * @example
 *   const reports = createReportWriter({ llm: config.llm, limitBackend, trialDailyAiReports: config.limits.trialDailyAiReports });
 *   await reports.checkReportQuota(input.principal, input.config, input); // optional: spends the unit
 *   const report = await reports.write(scored, input.config, input);
 */
import type { Assessment } from '../assessment/types.js';
import type { Principal } from '../auth/types.js';
import type { LlmConfig } from '../config.js';
import { ApiError } from '../errors.js';
import type { EvaluationConfig } from '../evaluation/config.js';
import type { ReportWriter, ScoredEvaluation, WriteOptions } from '../evaluation/service.js';
import type { EvaluationInput } from '../evaluation/types.js';
import type { LimitBackend } from '../gateway/limiters.js';
import { beijingDay, msUntilNextBeijingDay } from '../storage/day.js';
import { assembleReport, FALLBACK_SOURCE, LLM_SOURCE, templateReport } from './build.js';
import { buildEvidence, isAssessment } from './evidence.js';
import { acceptAnswer } from './llm/accept.js';
import { chatCompletion } from './llm/client.js';
import { buildMessages } from './llm/prompt.js';
import { checkAnswer, REPORT_SCHEMA } from './llm/schema.js';
import { voiceFromSlots } from './slots.js';
import { composeTemplate, priorityOrder } from './template/compose.js';
import type { Report } from './types.js';

export interface ReportWriterDeps {
  llm: LlmConfig;
  limitBackend: LimitBackend;
  /** Daily AI reports of a trial-tier tenant (config.limits.trialDailyAiReports). */
  trialDailyAiReports: number;
  /** Clock for the Beijing day (tests). */
  now?: () => number;
}

export interface KouyuReportWriter extends ReportWriter {
  /** Throws 429 42902 when this call would exceed the trial tier's daily AI reports. */
  checkReportQuota(principal: Principal, config: EvaluationConfig, input?: EvaluationInput): Promise<void>;
  /** The report of an assessment without the service around it (tools, tests). */
  writeAssessment(a: Assessment, config: EvaluationConfig): Promise<Report>;
}

/** Limiter name of the AI-report cap; the window is two days so a Beijing-day key outlives its day. */
const CAP_NAME = 'ai-report';
const CAP_WINDOW_SECONDS = 2 * 24 * 3600;

export function createReportWriter(deps: ReportWriterDeps): KouyuReportWriter {
  const now = deps.now ?? Date.now;
  const counted = new WeakSet<object>();
  const modelOn = () => deps.llm.baseUrl !== null && deps.llm.baseUrl !== '';

  const capped = (principal: Principal, config: EvaluationConfig) => modelOn() && config.includeReport && principal.tier === 'trial';
  const capKey = (principal: Principal, t: number) => `${principal.tenantId}:${beijingDay(t)}`;
  const refuse = (t: number) => new ApiError('AI_REPORT_CAP', undefined, { 'Retry-After': String(Math.ceil(msUntilNextBeijingDay(t) / 1000)) });

  async function checkReportQuota(principal: Principal, config: EvaluationConfig, input?: EvaluationInput): Promise<void> {
    if (!capped(principal, config)) return;
    if (input && counted.has(input)) return;
    const t = now();
    const outcome = await deps.limitBackend.consume(CAP_NAME, capKey(principal, t), deps.trialDailyAiReports, CAP_WINDOW_SECONDS);
    if (input) counted.add(input);
    if (!outcome.ok) throw refuse(t);
  }

  async function refuseOverReportCap(principal: Principal, config: EvaluationConfig): Promise<void> {
    if (!capped(principal, config)) return;
    const t = now();
    const outcome = await deps.limitBackend.peek(CAP_NAME, capKey(principal, t), deps.trialDailyAiReports, CAP_WINDOW_SECONDS);
    if (!outcome.ok) throw refuse(t);
  }

  async function writeAssessment(a: Assessment, config: EvaluationConfig): Promise<Report> {
    const ev = buildEvidence(a, config);
    const voice = voiceFromSlots(config.reportSlots, config.language);
    if (!modelOn()) return templateReport(a, ev, voice, config);
    const draft = composeTemplate(ev, voice);
    const outcome = await chatCompletion(deps.llm, buildMessages(ev, voice, config.referenceText, draft), REPORT_SCHEMA);
    if (outcome.kind === 'rejected') throw new ApiError('VALIDATION', outcome.message);
    if (outcome.kind === 'answer') {
      let parsed: unknown = null;
      try {
        // Some compatible servers wrap JSON in a Markdown fence even under a schema.
        parsed = JSON.parse(outcome.content.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
      } catch {
        parsed = null;
      }
      const checked = checkAnswer(parsed);
      const accepted = checked.ok ? acceptAnswer(checked.answer, voice, config.referenceText, priorityOrder(ev, voice)) : null;
      if (accepted) return assembleReport(LLM_SOURCE, accepted.body, a, ev, config, accepted.insights);
    }
    return templateReport(a, ev, voice, config, FALLBACK_SOURCE);
  }

  return {
    checkReportQuota,
    refuseOverReportCap,
    writeAssessment,
    async write(scored: ScoredEvaluation, config: EvaluationConfig, input: EvaluationInput, options: WriteOptions = {}) {
      // Kinds without a read-aloud assessment (open, connected) have no report from this writer.
      if (!isAssessment(scored.assessment)) return null;
      if (options.model === false) {
        const a = scored.assessment;
        return templateReport(a, buildEvidence(a, config), voiceFromSlots(config.reportSlots, config.language), config) as unknown as Record<string, unknown>;
      }
      await checkReportQuota(input.principal, config, input);
      return (await writeAssessment(scored.assessment, config)) as unknown as Record<string, unknown>;
    },
  };
}
