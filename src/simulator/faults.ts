// Fault injection, changeable while the simulator runs: latency on every API request, injected error
// answers and connection resets (decided after auth, before the route runs, so they never apply a change),
// lost answers (the route runs and its change is applied, then the connection drops without an answer),
// and nonce limits that make clients meet stale nonces.

import { errorBody } from './types.js';

export const FAULT_STATUSES = [500, 502, 503, 429] as const;
const CHANGE_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type FaultStatus = (typeof FAULT_STATUSES)[number];

export interface Faults {
  latencyMs: number;
  /** Extra random latency, uniform in [0, jitterMs]. */
  jitterMs: number;
  /** Probability (0..1) that an authenticated request gets an injected error answer. */
  errorRate: number;
  errorStatuses: FaultStatus[];
  /** Retry-After of injected 429 answers. */
  retryAfterSeconds: number;
  /** Probability (0..1) that an authenticated request has its connection destroyed without an answer. */
  resetRate: number;
  /** Probability (0..1) that a request of loseResponseMethods is applied and then answered by a dropped connection. */
  loseResponseRate: number;
  loseResponseMethods: string[];
  /** Uses allowed per digest nonce; 0 = unlimited. */
  nonceMaxUses: number;
  /** Lifetime of a digest nonce in ms. */
  nonceTtlMs: number;
}

export const defaultFaults = (): Faults => ({
  latencyMs: 0,
  jitterMs: 0,
  errorRate: 0,
  errorStatuses: [...FAULT_STATUSES],
  retryAfterSeconds: 1,
  resetRate: 0,
  loseResponseRate: 0,
  loseResponseMethods: [...CHANGE_METHODS],
  nonceMaxUses: 0,
  nonceTtlMs: 5 * 60_000,
});

/** Checks a partial change and applies it to the live object; throws with the offending field's name. */
export function applyFaults(target: Faults, change: Partial<Faults>): Faults {
  const next = { ...target, ...change };
  const nonNegative = ['latencyMs', 'jitterMs', 'retryAfterSeconds', 'nonceMaxUses', 'nonceTtlMs'] as const;
  for (const k of nonNegative) {
    if (!Number.isFinite(next[k]) || next[k] < 0) throw new Error(`fault ${k} must be a number >= 0`);
  }
  for (const k of ['errorRate', 'resetRate', 'loseResponseRate'] as const) {
    if (!Number.isFinite(next[k]) || next[k] < 0 || next[k] > 1)
      throw new Error(`fault ${k} must be in 0..1`);
  }
  if (
    !Array.isArray(next.errorStatuses) ||
    next.errorStatuses.length === 0 ||
    !next.errorStatuses.every((s) => (FAULT_STATUSES as readonly number[]).includes(s))
  ) {
    throw new Error(`fault errorStatuses must be a non-empty subset of ${FAULT_STATUSES.join(',')}`);
  }
  if (
    !Array.isArray(next.loseResponseMethods) ||
    !next.loseResponseMethods.every((m) => (CHANGE_METHODS as readonly string[]).includes(m))
  )
    throw new Error(`fault loseResponseMethods must be a subset of ${CHANGE_METHODS.join(',')}`);
  return Object.assign(target, next, {
    errorStatuses: [...next.errorStatuses],
    loseResponseMethods: [...next.loseResponseMethods],
  });
}

export const faultDelayMs = (f: Faults, rand: () => number = Math.random): number =>
  f.latencyMs + (f.jitterMs > 0 ? rand() * f.jitterMs : 0);

type FaultDecision = { kind: 'error'; status: FaultStatus } | { kind: 'reset' } | undefined;

export function decideFault(f: Faults, rand: () => number = Math.random): FaultDecision {
  if (f.errorRate > 0 && rand() < f.errorRate) {
    const status = f.errorStatuses[Math.floor(rand() * f.errorStatuses.length)] ?? 500;
    return { kind: 'error', status };
  }
  if (f.resetRate > 0 && rand() < f.resetRate) return { kind: 'reset' };
  return undefined;
}

/** Whether this request's answer is lost after its change was applied (decided once the route has run). */
export function losesResponse(f: Faults, method: string, rand: () => number = Math.random): boolean {
  return f.loseResponseRate > 0 && f.loseResponseMethods.includes(method) && rand() < f.loseResponseRate;
}

interface InjectedReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The answer for an injected error: JSON error bodies, except 502 which mimics a proxy's HTML page. */
export function injectedReply(status: FaultStatus, f: Faults, resource: string): InjectedReply {
  const json = (errorCode: string, detail: string, headers: Record<string, string> = {}) => ({
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(errorBody(status, errorCode, detail)),
  });
  switch (status) {
    case 429:
      return json('RATE_LIMITED', `Resource ${resource} is limited to 100 requests every 1 minutes.`, {
        'Retry-After': String(f.retryAfterSeconds),
      });
    case 503:
      return json('SERVICE_UNAVAILABLE', 'The service is temporarily unavailable.');
    case 502:
      return {
        status,
        headers: { 'Content-Type': 'text/html' },
        body: '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n',
      };
    default:
      return json('UNEXPECTED_ERROR', 'Unexpected error.');
  }
}
