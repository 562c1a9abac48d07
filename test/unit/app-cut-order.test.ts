// The incident timeline's copy of a triage is cut in its own order (src/mcp/apps.ts): what a bound keeps first
// must be today's urgent causes and the newest entries, not the oldest.
import { describe, expect, it } from 'vitest';
import { boundStructured } from '../../src/format/structured.js';
import { triageCutOrder } from '../../src/mcp/apps.js';

const NOW = Date.parse('2026-11-26T07:00:00Z');
const iso = (hoursAgo: number) => new Date(NOW - hoursAgo * 3_600_000).toISOString();
const group = (
  cause: string,
  eventTypeName: string,
  hoursAgo: number,
  extra: Record<string, unknown> = {},
) => ({
  cause,
  eventTypeName,
  count: 1,
  acknowledged: 0,
  oldest: iso(hoursAgo),
  alertIds: ['a'.repeat(24)],
  configChangeEventIds: [],
  alerts: [{ id: 'a'.repeat(24), created: iso(hoursAgo) }],
  ...extra,
});

describe('triageCutOrder', () => {
  const triage = {
    projectId: 'p',
    alerts: {
      groups: [
        group('old metric', 'OUTSIDE_METRIC_THRESHOLD', 120),
        group('acknowledged host down', 'HOST_DOWN', 2, {
          alerts: [{ id: 'b', created: iso(2), acknowledgedUntil: iso(-5) }],
        }),
        group('muted metric', 'OUTSIDE_METRIC_THRESHOLD', 1, {
          maintenanceWindow: { id: 'w', state: 'active' },
        }),
        group('host down today', 'HOST_DOWN', 0.1, { maintenanceWindow: { id: 'w', state: 'active' } }),
        group('agent down', 'MONITORING_AGENT_DOWN', 50),
      ],
    },
    changes: [{ id: 'e' }],
    timeline: [0, 1, 2, 3].map((i) => ({
      time: iso(100 - i * 30),
      kind: i % 2 ? 'change' : 'alert',
      summary: `${i} `.repeat(200),
    })),
    maintenanceWindows: [
      { id: 'later', startDate: iso(-10), endDate: iso(-12) },
      { id: 'now', startDate: iso(1), endDate: iso(-2) },
    ],
  };

  it('puts open, unmuted, data availability and newest first; drops what the view never draws', () => {
    const v = triageCutOrder(triage, NOW) as any;
    expect(v.alerts.groups.map((g: { cause: string }) => g.cause)).toEqual([
      'agent down',
      'old metric',
      'host down today',
      'muted metric',
      'acknowledged host down',
    ]);
    expect(v.timeline.map((e: { time: string }) => e.time)).toEqual(
      [...triage.timeline.map((e) => e.time)].reverse(),
    );
    expect(v.maintenanceWindows.map((w: { id: string }) => w.id)).toEqual(['now', 'later']);
    expect(v.changes).toBeUndefined();
    expect(v.alerts.groups[0].alertIds).toBeUndefined();
  });

  it('so a bound that keeps two entries keeps the newest, not the oldest', () => {
    const cut = boundStructured(triageCutOrder(triage, NOW), { max: 2000, nextStep: '', more: '' }) as any;
    const kept = cut.timeline.map((e: { time: string }) => e.time);
    expect(kept.length).toBeLessThan(triage.timeline.length);
    expect(kept[0]).toBe(triage.timeline.at(-1)!.time);
  });
});
