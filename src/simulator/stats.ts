// Request statistics of the simulator: what benchmarks and tests read to count round trips, challenges,
// failed logins and injected faults. Served as JSON at GET /__simulator/stats.

interface StatsCounts {
  /** API requests (under the prefix), challenges included. */
  requests: number;
  byMethod: Record<string, number>;
  /** By matched route pattern, e.g. "GET /groups/:projectId/alertConfigs". */
  byRoute: Record<string, number>;
  byStatus: Record<string, number>;
  /** 401 answers carrying WWW-Authenticate (first leg of every digest exchange, stale nonces, failures). */
  challenges: number;
  /** Authorization headers with bad credentials (unknown key, wrong password, malformed, replayed nc). */
  authFailures: number;
  /** Correct credentials on a nonce that expired or was used up (answered with stale=true). */
  staleNonces: number;
  injectedErrors: number;
  resets: number;
  /** Changes applied whose answer was then dropped (lose-response fault). */
  lostResponses: number;
}

export interface Stats extends StatsCounts {
  /** Zeroes every counter. */
  reset(): void;
  /** A plain copy of the counters. */
  snapshot(): StatsCounts;
}

const zero = (): StatsCounts => ({
  requests: 0,
  byMethod: {},
  byRoute: {},
  byStatus: {},
  challenges: 0,
  authFailures: 0,
  staleNonces: 0,
  injectedErrors: 0,
  resets: 0,
  lostResponses: 0,
});

export function createStats(): Stats {
  const stats: Stats = {
    ...zero(),
    reset() {
      Object.assign(stats, zero());
    },
    snapshot() {
      const { reset: _reset, snapshot: _snapshot, ...counts } = stats;
      return structuredClone(counts);
    },
  };
  return stats;
}

export function bump(counter: Record<string, number>, key: string): void {
  counter[key] = (counter[key] ?? 0) + 1;
}
