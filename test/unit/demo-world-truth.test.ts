// The demo world true to the platform's rules (issue 41): a notification carries the key of its project's
// integration of that type unless a rotation the world records left it behind; a muted alert is not notified
// inside the window that mutes it; an invitation the world records is an event the API answers. Read from the
// built records, the way the answers read them, not from the code that derived them.
import { describe, expect, it } from 'vitest';
import { alertTypeOf } from '../../src/rules/index.js';
import { buildDemoDataset } from '../../src/simulator/data/index.js';
import { WORLD } from '../../src/simulator/data/world.js';

const NOW = new Date('2026-11-21T16:00:00Z');
const d = buildDemoDataset(20260101, NOW);
const projectName = (id?: string): string => d.projects.find((p) => p.id === id)?.name ?? `?${id}`;

/** The secret-looking values of a record (keys, tokens, hook URLs): long strings. */
const secrets = (r: object): string[] =>
  Object.values(r).filter((v): v is string => typeof v === 'string' && v.length >= 20);

describe('the demo world keeps the platform rules', () => {
  it('gives every notification its integration’s current key, except those a rotation left behind', () => {
    const stale = WORLD.rotations.flatMap((r) =>
      r.stale.map((s) => `${s.project} ${r.integration} ${s.event} ${s.metric ?? ''}`),
    );
    const wrong: string[] = [];
    let compared = 0;
    for (const c of d.alertConfigs)
      for (const n of c.notifications) {
        const integration = d.integrations.find((i) => i.groupId === c.groupId && i.type === n.typeName);
        if (integration === undefined) continue;
        const where = `${projectName(c.groupId)} ${n.typeName} ${c.eventTypeName} ${c.metricThreshold?.metricName ?? ''}`;
        const current = secrets(integration.fields);
        const held = secrets(n);
        const same = held.length > 0 && held.every((k) => current.includes(k));
        compared += 1;
        if (same === stale.includes(where))
          wrong.push(
            `${where}: ${same ? 'carries the current key, yet a rotation left it behind' : 'differs'}`,
          );
      }
    expect(wrong).toEqual([]);
    expect(compared).toBeGreaterThanOrEqual(6);
  });

  it('does not notify a muted alert inside the window that mutes it', () => {
    const wrong: string[] = [];
    for (const a of [...d.alerts, ...d.globalAlerts]) {
      if (a.status !== 'OPEN' || a.lastNotified === undefined) continue;
      for (const w of d.maintenanceWindows.filter((x) => x.groupId === a.groupId)) {
        const [from, to, at] = [Date.parse(w.startDate), Date.parse(w.endDate), Date.parse(a.lastNotified)];
        if (w.alertTypeNames.includes(alertTypeOf(a.eventTypeName) ?? '?') && at > from && at < to)
          wrong.push(`${a.eventTypeName} ${a.id} notified ${a.lastNotified} inside window ${w.description}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('does not notify an alert while its acknowledgement holds', () => {
    const wrong: string[] = [];
    for (const a of [...d.alerts, ...d.globalAlerts]) {
      const acked = d.events.find(
        (e) => e.eventTypeName === 'ALERT_ACKNOWLEDGED_AUDIT' && e.alertId === a.id,
      );
      if (a.status !== 'OPEN' || !a.lastNotified || !acked || !a.acknowledgedUntil) continue;
      const at = Date.parse(a.lastNotified);
      if (at > Date.parse(acked.created) && at < Date.parse(a.acknowledgedUntil))
        wrong.push(`${a.eventTypeName} ${a.id} notified ${a.lastNotified}, acknowledged ${acked.created}`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers each pending invitation as an INVITED_TO_GROUP event with whom and by whom', () => {
    const missing: string[] = [];
    let pending = 0;
    for (const u of d.users)
      for (const r of u.pendingRoles.filter((x) => x.groupId)) {
        pending += 1;
        const e = d.events.find(
          (x) =>
            x.eventTypeName === 'INVITED_TO_GROUP' &&
            x.groupId === r.groupId &&
            x.targetUsername === u.username,
        );
        if (e === undefined || typeof e.username !== 'string')
          missing.push(`${u.username} to ${projectName(r.groupId)}`);
      }
    expect(pending).toBeGreaterThan(0);
    expect(missing).toEqual([]);
  });
});
