// The metrics facade: counters count nothing until enableMetrics() loads prom-client (a stdio server never
// does), then count as prom-client's own, in the order they are declared (the scraped text's order).
import { describe, expect, it } from 'vitest';
import { enableMetrics, gauge, scrape, toolCallSeconds, toolCalls } from '../../src/metrics.js';

describe('the metrics facade', () => {
  it('counts nothing before enableMetrics(), then counts, gauges included', async () => {
    toolCalls.inc({ tool: 'before', outcome: 'ok' });
    const timer = toolCallSeconds.startTimer({ tool: 'spanning' });
    gauge('dbops_test_gauge', 'a gauge declared before metrics are enabled', () => 7);
    await enableMetrics();
    toolCalls.inc({ tool: 'after', outcome: 'ok' });
    timer();
    const { contentType, text } = await scrape();
    expect(contentType).toMatch(/^text\/plain/);
    expect(text).not.toContain('tool="before"');
    expect(text).toMatch(/dbops_tool_calls_total\{tool="after",outcome="ok"\} 1/);
    expect(text).toMatch(/dbops_tool_call_duration_seconds_count\{tool="spanning"\} 1/);
    expect(text).toMatch(/dbops_test_gauge 7/);
    const order = [
      'dbops_tool_calls_total',
      'dbops_tool_call_duration_seconds',
      'dbops_consent_total',
      'dbops_platform_requests_total',
      'dbops_platform_request_duration_seconds',
      'dbops_cache_requests_total',
      'dbops_test_gauge',
    ].map((name) => text.indexOf(`# HELP ${name} `));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('takes the latest reader of a gauge declared again (a transport started anew)', async () => {
    await enableMetrics();
    gauge('dbops_test_again', 'declared twice', () => 1);
    gauge('dbops_test_again', 'declared twice', () => 2);
    expect((await scrape()).text).toMatch(/dbops_test_again 2/);
  });
});
