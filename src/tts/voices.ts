/**
 * Voice resolution for TTS: system voices for everyone, private voices for their tenant only.
 * Another tenant's voice answers exactly like an unknown voice (spec: tenants are isolated).
 */
import { findSystemVoice, systemVoiceListing } from '../synthesis/voices.js';
import type { SynthesisRequest, VoiceProfile } from '../synthesis/types.js';
import type { TenantVoice, VoiceStore } from '../storage/types.js';

export interface VoiceListItem {
  /** Item id for deletion (system voices: the voiceId itself; they cannot be deleted). */
  id: string;
  voiceId: string;
  name: string;
  ownerType: 'system' | 'tenant';
  language: string;
  gender: string;
  /** `ready` for every voice that can be used (see README: voice status values). */
  status: string;
  styleGroup?: string;
}

export async function listVoices(store: VoiceStore, tenantId: string): Promise<VoiceListItem[]> {
  const system = systemVoiceListing().map((v) => ({ id: v.voiceId, ...v, status: 'ready' }));
  const own = (await store.list(tenantId)).map(tenantItem);
  return [...system, ...own];
}

export function tenantItem(v: TenantVoice): VoiceListItem {
  return { id: v.id, voiceId: v.voiceId, name: v.name, ownerType: 'tenant', language: v.language, gender: v.gender, status: v.status };
}

/**
 * The tenant's own voices, read once per request: `known` validates the `voice` parameter,
 * `resolve` replaces a tenant voice id with its base voice and profile.
 */
export async function tenantVoices(store: VoiceStore, tenantId: string) {
  const own = new Map((await store.list(tenantId)).map((v) => [v.voiceId, v]));
  return {
    known: (id: string) => !!findSystemVoice(id) || own.has(id),
    resolve(req: SynthesisRequest): SynthesisRequest {
      const voice = findSystemVoice(req.voice) ? undefined : own.get(req.voice);
      return voice ? { ...req, voice: voice.baseVoice, profile: voice.profile as VoiceProfile } : req;
    },
  };
}
