// What an operator scrapes at GET /metrics (Prometheus text format, through prom-client): tool calls, consent,
// platform requests, the read cache, sessions. The counters here are a thin facade: they count nothing until
// enableMetrics() loads prom-client (the HTTP transport does, as it serves /metrics), so a stdio server never
// imports it. One registry per process, without prom-client's default process collectors (they add an
// event-loop monitor for numbers no one asked for).
import type { Counter as PromCounter, Histogram as PromHistogram, Registry } from 'prom-client';

type Labels<L extends string> = Partial<Record<L, string | number>>;

interface Counter<L extends string> {
  inc(labels: Labels<L>, value?: number): void;
}

interface Histogram<L extends string> {
  observe(labels: Labels<L>, seconds: number): void;
  /** Starts timing; the function returned observes the seconds since. */
  startTimer(labels: Labels<L>): () => void;
}

interface Spec {
  kind: 'counter' | 'histogram';
  name: string;
  help: string;
  labelNames: readonly string[];
}

/** prom-client and the metrics made with it, once loaded. */
interface Live {
  registry: Registry;
  counters: Map<string, PromCounter<string>>;
  histograms: Map<string, PromHistogram<string>>;
  Gauge: typeof import('prom-client')['Gauge'];
}

/** In the order they are registered (the order of the scraped text). */
const specs: Spec[] = [];
/** What an installation's client counts: its reads through the cache, and its requests by method and status. */
export const platformCounters = (platform: string) => ({
  onRead: (result: 'hit' | 'coalesced' | 'miss') => cacheReads.inc({ result }),
  onResponse: (method: string, status: number | string, ms: number) => {
    platformRequests.inc({ platform, method, status: String(status) });
    platformRequestSeconds.observe({ platform, method }, ms / 1000);
  },
});

/** Gauges read when scraped, by name: registered at once when live, else when metrics are enabled. */
const gaugeSpecs = new Map<string, { help: string; read: () => number }>();
let live: Live | undefined;
let loading: Promise<Live> | undefined;

const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  specs.push({ kind: 'counter', name, help, labelNames });
  return { inc: (labels, value) => live?.counters.get(name)?.inc(labels, value) };
}

function histogram<L extends string>(name: string, help: string, labelNames: readonly L[]): Histogram<L> {
  specs.push({ kind: 'histogram', name, help, labelNames });
  const observe = (labels: Labels<L>, s: number) => live?.histograms.get(name)?.observe(labels, s);
  return {
    observe,
    startTimer(labels) {
      const start = performance.now();
      return () => observe(labels, (performance.now() - start) / 1000);
    },
  };
}

export const toolCalls = counter(
  'dbops_tool_calls_total',
  'Tool calls by tool and outcome (ok, error, or the consent outcome of a change)',
  ['tool', 'outcome'] as const,
);

export const toolCallSeconds = histogram('dbops_tool_call_duration_seconds', 'Tool call latency', [
  'tool',
] as const);

export const consentSteps = counter(
  'dbops_consent_total',
  'Steps of guarded calls as audited, by consent channel and outcome',
  ['channel', 'outcome'] as const,
);

const platformRequests = counter(
  'dbops_platform_requests_total',
  'HTTP requests to the platform by installation, method and status (digest challenges included)',
  ['platform', 'method', 'status'] as const,
);

const platformRequestSeconds = histogram(
  'dbops_platform_request_duration_seconds',
  'Platform request latency by installation',
  ['platform', 'method'] as const,
);

const cacheReads = counter(
  'dbops_cache_requests_total',
  'Reads through the shared read cache: hit (kept answer), coalesced (joined a request in flight), miss',
  ['result'] as const,
);

/** Gauges read when scraped, from whoever holds the number (the HTTP transport's sessions). */
export function gauge(name: string, help: string, read: () => number): void {
  gaugeSpecs.set(name, { help, read });
  if (live) registerGauge(live, name, help, read);
}

function registerGauge(l: Live, name: string, help: string, read: () => number): void {
  l.registry.removeSingleMetric(name);
  new l.Gauge({
    name,
    help,
    registers: [l.registry],
    collect() {
      this.set(read());
    },
  });
}

/** Loads prom-client and starts counting (from now on); the same promise for every caller. */
export function enableMetrics(): Promise<void> {
  loading ??= import('prom-client').then((prom) => {
    const registry = new prom.Registry();
    const made: Live = { registry, counters: new Map(), histograms: new Map(), Gauge: prom.Gauge };
    for (const { kind, name, help, labelNames } of specs) {
      const common = { name, help, labelNames: [...labelNames], registers: [registry] };
      if (kind === 'counter') made.counters.set(name, new prom.Counter(common));
      else made.histograms.set(name, new prom.Histogram({ ...common, buckets: seconds }));
    }
    for (const [name, g] of gaugeSpecs) registerGauge(made, name, g.help, g.read);
    live = made;
    return made;
  });
  return loading.then(() => undefined);
}

/** The metrics in Prometheus text format, and its content type (metrics are enabled first if they are not). */
export async function scrape(): Promise<{ contentType: string; text: string }> {
  await enableMetrics();
  const { registry } = live as Live;
  return { contentType: registry.contentType, text: await registry.metrics() };
}
