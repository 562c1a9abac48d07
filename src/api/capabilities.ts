// The one way to handle an endpoint a server may lack: which beyond-spec endpoints a server offers, learned
// from its answers and remembered per API client (one client per configured server), so a server without one
// costs a single 404 (or 405) per process, not one per call. Feeds fall back to the spec's endpoints; a
// preview goes on without the current state.
import type { ApiClient } from './client.js';
import { ApiError } from './errors.js';

/** Beyond-spec lists some servers lack (in the field, an unknown path answers 404 RESOURCE_NOT_FOUND, a known
 * path with another method 405). */
type Capability =
  | 'projectAlerts' // GET /groups/{id}/alerts?status=
  | 'projects' // GET /groups
  | 'maintenanceWindows' // GET /groups/{id}/maintenanceWindows
  | 'globalAlertConfigs' // GET /globalAlertConfigs
  | 'alert' // GET /groups/{id}/alerts/{alertId} (the spec has PATCH only)
  | 'globalAlert' // GET /globalAlerts/{alertId}
  | 'user' // GET /users/{userId}
  | 'integrations'; // GET /groups/{id}/integrations

const known = new WeakMap<ApiClient, Map<Capability, boolean>>();

function memo(api: ApiClient): Map<Capability, boolean> {
  let m = known.get(api);
  if (!m) {
    m = new Map();
    known.set(api, m);
  }
  return m;
}

/**
 * The server has no such endpoint: 404 RESOURCE_NOT_FOUND for an unknown path (not an unknown project, alert
 * or config, which are 404s with their own codes), or 405 where the path exists for other methods only.
 */
export function isMissingEndpoint(e: unknown): boolean {
  return (
    e instanceof ApiError &&
    ((e.status === 404 && e.errorCode === 'RESOURCE_NOT_FOUND') || (e.status === 405 && e.method === 'GET'))
  );
}

/** false once the server answered that it lacks the endpoint; true once it answered; undefined before. */
export function supports(api: ApiClient, cap: Capability): boolean | undefined {
  return known.get(api)?.get(cap);
}

/**
 * Runs `primary` unless the server is known to lack it; when it answers that it has no such endpoint,
 * remembers that and runs `fallback` (now and on every later call with this client).
 */
export async function withFallback<T>(
  api: ApiClient,
  cap: Capability,
  primary: () => Promise<T>,
  fallback: () => Promise<T>,
): Promise<{ value: T; fallback: boolean }> {
  if (supports(api, cap) === false) return { value: await fallback(), fallback: true };
  try {
    const value = await primary();
    memo(api).set(cap, true);
    return { value, fallback: false };
  } catch (e) {
    if (!isMissingEndpoint(e)) throw e;
    memo(api).set(cap, false);
    return { value: await fallback(), fallback: true };
  }
}

/** A beyond-spec read with no spec-only equivalent: undefined when the server lacks it. */
export async function ifSupported<T>(
  api: ApiClient,
  cap: Capability,
  call: () => Promise<T>,
): Promise<T | undefined> {
  return (await withFallback(api, cap, call, async () => undefined)).value;
}
