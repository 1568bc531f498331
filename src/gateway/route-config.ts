/**
 * What a route asks of the write-path machinery, declared in its route config next to `auth`:
 *   { config: { auth: [...], idempotent: true, rateLimit: 'ttsAsr', admission: 'evaluation' } }
 * - idempotent: honours the Idempotency-Key header (spec "Idempotency key" state table);
 * - rateLimit 'ttsAsr': the 60-calls-per-minute-per-key limit of TTS and ASR (code 3001);
 * - admission 'evaluation': sandbox daily cap (42903), plan quota and balance (40902) and the
 *   tier's concurrent-evaluation limit (42901), checked in that order.
 */
export interface WritePathConfig {
  idempotent?: boolean;
  rateLimit?: 'ttsAsr';
  admission?: 'evaluation';
}

declare module 'fastify' {
  interface FastifyContextConfig extends WritePathConfig {}
}
