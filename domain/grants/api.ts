import type { ApiClient, FieldOption } from '@/core';
import type { AccessExplanation } from '../AccessExplainDialog';

// The calls every grant screen makes the same way, whichever side it starts from (an asset, a user or group, all).

/** A grant's terms as the server takes them: an open side ('') and no strategy ('') are left out of the body. */
export function grantTerms(terms: { strategyId?: string; validFrom?: string; validUntil?: string }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(terms)) if (typeof v === 'string' && v !== '') out[k] = v;
  return out;
}

/** `GET /strategies` as a picker's options. */
export async function strategyOptions(api: ApiClient): Promise<FieldOption[]> {
  return ((await api.get<{ id: string; name?: string }[] | null>('/strategies')) ?? []).map((s) => ({ value: s.id, label: s.name ?? s.id }));
}

/** `GET /authorised/explain`: why a user may (or may not) open an asset. Silent: the dialog shows a failure. */
export function explainAccess(api: ApiClient, userId: string, assetId: string): Promise<AccessExplanation> {
  return api.get<AccessExplanation>('/authorised/explain', { params: { userId, assetId }, silent: true });
}
