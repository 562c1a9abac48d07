// What an operator scrapes at GET /metrics (Prometheus text format, through prom-client): tool calls, consent,
// platform requests, the read cache, sessions. One registry per process, without prom-client's default
// process collectors (they add an event-loop monitor to every stdio server for numbers no one asked for).
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export const registry = new Registry();

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export const toolCalls = new Counter({
  name: 'dbops_tool_calls_total',
  help: 'Tool calls by tool and outcome (ok, error, or the consent outcome of a change)',
  labelNames: ['tool', 'outcome'] as const,
  registers: [registry],
});

export const toolCallSeconds = new Histogram({
  name: 'dbops_tool_call_duration_seconds',
  help: 'Tool call latency',
  labelNames: ['tool'] as const,
  buckets: seconds,
  registers: [registry],
});

export const consentSteps = new Counter({
  name: 'dbops_consent_total',
  help: 'Steps of guarded calls as audited, by consent channel and outcome',
  labelNames: ['channel', 'outcome'] as const,
  registers: [registry],
});

export const platformRequests = new Counter({
  name: 'dbops_platform_requests_total',
  help: 'HTTP requests to the platform by installation, method and status (digest challenges included)',
  labelNames: ['platform', 'method', 'status'] as const,
  registers: [registry],
});

export const platformRequestSeconds = new Histogram({
  name: 'dbops_platform_request_duration_seconds',
  help: 'Platform request latency by installation',
  labelNames: ['platform', 'method'] as const,
  buckets: seconds,
  registers: [registry],
});

export const cacheReads = new Counter({
  name: 'dbops_cache_requests_total',
  help: 'Reads through the shared read cache: hit (kept answer), coalesced (joined a request in flight), miss',
  labelNames: ['result'] as const,
  registers: [registry],
});

/** Gauges read when scraped, from whoever holds the number (the HTTP transport's sessions). */
export function gauge(name: string, help: string, read: () => number): void {
  registry.removeSingleMetric(name);
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}
