// Ids a person can pick from (resource lists, argument completion): the projects this key sees and the global
// alert configurations. Both lists are beyond the spec, so a server without them yields what is configured.
// Kept for a short while per API client: completion asks on every keystroke.

import { ifSupported } from '../api/capabilities.js';
import type { ApiClient } from '../api/client.js';
import { fetchAll } from '../api/paging.js';
import type { Logger } from '../log.js';

export interface Choice {
  id: string;
  name?: string;
}

const TTL_MS = 30_000;
const MAX_CHOICES = 500;
const cache = new WeakMap<ApiClient, Map<string, { at: number; value: Promise<Choice[]> }>>();

function cached(api: ApiClient, what: string, load: () => Promise<Choice[]>): Promise<Choice[]> {
  let m = cache.get(api);
  if (!m) {
    m = new Map();
    cache.set(api, m);
  }
  const hit = m.get(what);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.value;
  const value = load();
  m.set(what, { at: Date.now(), value });
  value.catch(() => m.delete(what));
  return value;
}

/**
 * The configured project first, then every project the key can list. A failure to list (no such endpoint,
 * no right to list, the platform down) leaves the configured project: listing is a convenience.
 */
export async function projectChoices(
  api: ApiClient,
  configured: string | undefined,
  logger?: Logger,
): Promise<Choice[]> {
  const listed = await cached(api, 'projects', async () => {
    const r = await ifSupported(api, 'projects', () =>
      fetchAll((q) => api.projects.list(q), { maxItems: MAX_CHOICES }),
    );
    return (r?.items ?? []).map((p) => ({ id: p.id, name: p.name }));
  }).catch((e: unknown) => {
    logger?.debug('cannot list projects', { error: String(e) });
    return [] as Choice[];
  });
  if (!configured) return listed;
  const mine = listed.find((p) => p.id === configured) ?? { id: configured };
  return [mine, ...listed.filter((p) => p.id !== configured)];
}

export async function globalAlertConfigChoices(api: ApiClient, logger?: Logger): Promise<Choice[]> {
  return cached(api, 'globalAlertConfigs', async () => {
    const r = await ifSupported(api, 'globalAlertConfigs', () =>
      fetchAll((q) => api.globalAlerts.listConfigs(q), { maxItems: MAX_CHOICES }),
    );
    return (r?.items ?? []).map((c) => ({ id: c.id, name: c.eventTypeName }));
  }).catch((e: unknown) => {
    logger?.debug('cannot list global alert configurations', { error: String(e) });
    return [] as Choice[];
  });
}

/** Ids starting with what was typed, or whose name contains it (people remember names, not ids). */
export function completeIds(choices: Choice[], typed: string): string[] {
  const t = typed.toLowerCase();
  return choices
    .filter((c) => c.id.toLowerCase().startsWith(t) || (c.name ?? '').toLowerCase().includes(t))
    .map((c) => c.id)
    .slice(0, 100);
}
