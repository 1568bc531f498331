/**
 * A minimal OpenAI-compatible chat-completions client (POST {baseUrl}/chat/completions) with a
 * strict JSON-schema response format and a hard timeout. Outcomes are values, not exceptions:
 *   answer    — the message content;
 *   rejected  — the upstream refused the request itself (context window exceeded and the like):
 *               the spec makes that 400 40001 with the upstream message;
 *   failed    — anything else (network, timeout, 5xx, model refusal, cut-off or empty answer):
 *               the writer falls back to the template.
 */
import type { LlmConfig } from '../../config.js';

export type ChatOutcome = { kind: 'answer'; content: string } | { kind: 'rejected'; message: string } | { kind: 'failed'; reason: string };

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

/** Upstream error codes and messages that mean "this request cannot be served as sent". */
const REQUEST_REFUSAL = /context_length_exceeded|string_above_max_length|context (length|window)|maximum context|too many tokens|prompt is too long|token limit/i;

export async function chatCompletion(cfg: LlmConfig, messages: ChatMessage[], schema: object): Promise<ChatOutcome> {
  if (!cfg.baseUrl) return { kind: 'failed', reason: 'no model configured' };
  const url = `${cfg.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const body = {
    model: cfg.model,
    messages,
    temperature: 0.3,
    response_format: { type: 'json_schema', json_schema: { name: 'kouyu_report', strict: true, schema } },
  };
  let res: Response;
  let text: string;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cfg.apiKey ? { authorization: `Bearer ${cfg.apiKey}` } : {}) },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(cfg.timeoutMs),
    });
    text = await res.text();
  } catch (err) {
    const name = (err as Error).name;
    return { kind: 'failed', reason: name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : `network: ${(err as Error).message}` };
  }
  const json = parseJson(text);
  if (!res.ok) {
    const error = (json as { error?: { message?: unknown; code?: unknown } } | null)?.error;
    const message = typeof error?.message === 'string' ? error.message : text.slice(0, 300);
    const code = typeof error?.code === 'string' ? error.code : '';
    if ((res.status === 400 || res.status === 413) && REQUEST_REFUSAL.test(`${code} ${message}`)) return { kind: 'rejected', message };
    return { kind: 'failed', reason: `upstream status ${res.status}` };
  }
  const choice = (json as { choices?: { message?: { content?: unknown; refusal?: unknown }; finish_reason?: unknown }[] } | null)?.choices?.[0];
  if (!choice?.message) return { kind: 'failed', reason: 'no choices in answer' };
  if (typeof choice.message.refusal === 'string' && choice.message.refusal !== '') return { kind: 'failed', reason: 'model refused' };
  if (choice.finish_reason === 'length') return { kind: 'failed', reason: 'answer cut off' };
  if (typeof choice.message.content !== 'string' || choice.message.content.trim() === '') return { kind: 'failed', reason: 'empty answer' };
  return { kind: 'answer', content: choice.message.content };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
