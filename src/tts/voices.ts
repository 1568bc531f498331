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

/** Tenant voice ids the request may use, for validation. */
export async function knownVoicePredicate(store: VoiceStore, tenantId: string): Promise<(id: string) => boolean> {
  const own = new Set((await store.list(tenantId)).map((v) => v.voiceId));
  return (id) => !!findSystemVoice(id) || own.has(id);
}

/** Replaces a tenant voice id with its base voice and profile. */
export async function resolveVoice(store: VoiceStore, tenantId: string, req: SynthesisRequest): Promise<SynthesisRequest> {
  if (findSystemVoice(req.voice)) return req;
  const voice = await store.findByVoiceId(tenantId, req.voice);
  if (!voice) return req; // validation already refused unknown voices
  return { ...req, voice: voice.baseVoice, profile: voice.profile as VoiceProfile };
}
