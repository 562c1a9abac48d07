// Benchmark: our API client (challenge cached, requests signed preemptively: one round trip per call)
// against the baseline behaviour of the official client (a fresh challenge on every request: two).
// Both run in the same process against the same in-process simulator with 2 ms of latency per request.
// Run `npm run build` first. Prints a table, writes bench/results-client.json, and prints the JSON last.

import { writeFileSync } from 'node:fs';
import { createApiClient } from '../dist/src/api/client.js';
import { startSimulator } from '../dist/src/simulator/index.js';

const N = Number(process.env.BENCH_N ?? 300);
const LATENCY_MS = 2;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const round = (x, d = 3) => Math.round(x * 10 ** d) / 10 ** d;

async function measure(sim, client, projectId, alertConfigId) {
  await client.alertConfigs.get(projectId, alertConfigId); // warm: pool connected, challenge cached
  const before = sim.stats.snapshot();
  const sentBefore = client.stats.requests;
  const times = [];
  for (let i = 0; i < N; i++) {
    const t0 = performance.now();
    await client.alertConfigs.get(projectId, alertConfigId);
    times.push(performance.now() - t0);
  }
  const after = sim.stats.snapshot();
  return {
    medianMs: round(median(times)),
    requestsPerCall: round((after.requests - before.requests) / N),
    challengesPerCall: round((after.challenges - before.challenges) / N),
    clientRequestsPerCall: round((client.stats.requests - sentBefore) / N),
  };
}

const sim = await startSimulator({
  host: '127.0.0.1',
  port: 0,
  dataset: 'demo',
  faults: { latencyMs: LATENCY_MS },
});
const t0 = Date.now();
try {
  const config = { baseUrl: sim.baseUrl, ...sim.keys };
  const ours = createApiClient(config);
  const baseline = createApiClient({ ...config, preemptive: false });
  const projectId = sim.projectIds[0];
  const first = (await ours.alertConfigs.list(projectId, { itemsPerPage: 1 })).results[0];
  if (!first) throw new Error(`project ${projectId} has no alert configurations`);

  const baselineResult = await measure(sim, baseline, projectId, first.id);
  const oursResult = await measure(sim, ours, projectId, first.id);
  await Promise.all([ours.close(), baseline.close()]);

  const ratio = round(oursResult.medianMs / baselineResult.medianMs);
  const result = {
    benchmark: 'client: preemptive digest vs challenge per request',
    calls: N,
    latencyMs: LATENCY_MS,
    ours: oursResult,
    baseline: baselineResult,
    ratio,
    expectedRatioAtMost: 0.6,
    pass: ratio <= 0.6 && oursResult.requestsPerCall === 1,
    durationMs: Date.now() - t0,
    node: process.version,
  };
  console.log(`${N} sequential alertConfigs.get calls, ${LATENCY_MS} ms simulated latency`);
  console.log(`                 median ms   HTTP requests/call`);
  console.log(`ours (warm)      ${String(oursResult.medianMs).padEnd(11)} ${oursResult.requestsPerCall}`);
  console.log(
    `baseline         ${String(baselineResult.medianMs).padEnd(11)} ${baselineResult.requestsPerCall}`,
  );
  console.log(`ratio ours/baseline: ${ratio} (expected <= 0.6)`);
  writeFileSync(new URL('./results-client.json', import.meta.url), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result));
} finally {
  await sim.close();
}
