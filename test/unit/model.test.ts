// The model's join (src/model/join.ts): a project's records joined once by the rules, and records that say
// opposite things kept both and named, never resolved in silence.
import { describe, expect, it } from 'vitest';
import { joinProject, type ProjectRecords } from '../../src/model/index.js';

const now = new Date('2026-11-28T06:00:00Z');
const ago = (min: number) => new Date(now.getTime() - min * 60_000).toISOString();
const ahead = (min: number) => new Date(now.getTime() + min * 60_000).toISOString();

const records = (o: Partial<ProjectRecords>): ProjectRecords => ({ projectId: 'p1', failed: [], ...o });
const openAlerts = (alerts: object[], configs: object[] = []) => ({
  alerts: alerts as never,
  configs: configs as never,
  source: 'project' as const,
  truncated: false,
  globalAlertIds: [],
  globalConfigs: [],
});

describe('the model joins a project once', () => {
  it('gives each open alert its severity, window, pages, differing keys and acknowledgement', () => {
    const config = {
      id: 'c1',
      notifications: [
        { typeName: 'USER', username: 'priya', smsEnabled: true },
        { typeName: 'INCIDENT_PAGING_A', serviceKey: '******0001' },
        { typeName: 'EMAIL' },
      ],
    };
    const r = records({
      alerts: openAlerts(
        [
          {
            id: 'a1',
            status: 'OPEN',
            eventTypeName: 'HOST_DOWN',
            alertConfigId: 'c1',
            acknowledgedUntil: ahead(30),
            acknowledgingUsername: 'sofia',
            acknowledgementComment: 'Rack B power loss',
          },
          { id: 'a2', status: 'OPEN', eventTypeName: 'OUTSIDE_METRIC_THRESHOLD', alertConfigId: 'c1' },
        ],
        [config],
      ),
      windows: [{ id: 'w1', startDate: ago(10), endDate: ahead(60), alertTypeNames: ['HOST'] }],
      integrations: [{ type: 'INCIDENT_PAGING_A', serviceKey: '******9999' }],
      events: {
        since: ago(600),
        totalCount: 1,
        truncated: false,
        events: [{ id: 'e1', alertId: 'a2', eventTypeName: 'ALERT_ACKNOWLEDGED_AUDIT', created: ago(300) }],
      },
    });
    const [a1, a2] = joinProject(r, now).alerts;
    expect(a1).toMatchObject({
      severity: 'critical',
      dataAvailability: true,
      muting: { id: 'w1', state: 'active', alertType: 'HOST' },
      acknowledgement: { by: 'sofia', comment: 'Rack B power loss' },
    });
    expect(a1!.pages.map((p) => p.service)).toEqual(['SMS', 'PagerDuty']);
    expect(a1!.keyDifferences).toMatchObject([{ integrationType: 'INCIDENT_PAGING_A' }]);
    expect(a2).toMatchObject({ severity: 'warning', lapsed: { id: 'e1' } });
    expect(a2!.acknowledgement).toBeUndefined();
  });

  it('keeps a host that pings with an open HOST_DOWN, a primary that pings under NO_PRIMARY, an ack on a closed alert', () => {
    const host = {
      id: 'h1',
      hostname: 'db-04',
      port: 27017,
      typeName: 'SHARD_PRIMARY',
      replicaSetName: 'sh1',
      lastPing: ago(1),
    };
    const r = records({
      hosts: [host],
      alerts: openAlerts([
        { id: 'down', status: 'OPEN', eventTypeName: 'HOST_DOWN', hostnameAndPort: 'db-04:27017' },
        { id: 'np', status: 'OPEN', eventTypeName: 'NO_PRIMARY', replicaSetName: 'sh1' },
      ]),
      closed: [{ id: 'old', status: 'CLOSED', acknowledgedUntil: ahead(60) }],
    });
    const f = joinProject(r, now);
    expect(f.hosts[0]!.state.state).toBe('disputed');
    expect(f.sets[0]!.writability.writable).toBe(false);
    expect(f.contradictions).toEqual([
      {
        kind: 'host pings and is down',
        host: 'db-04:27017',
        lastPing: ago(1),
        alertId: 'down',
      },
      { kind: 'acknowledged and closed', alertId: 'old', status: 'CLOSED', acknowledgedUntil: ahead(60) },
    ]);
  });

  it('says a set is writable with a primary that pings, and keeps an open NO_PRIMARY beside it', () => {
    const primary = {
      id: 'h1',
      hostname: 'db-01',
      port: 27017,
      typeName: 'REPLICA_PRIMARY',
      replicaSetName: 'rs0',
      lastPing: ago(1),
    };
    const r = records({
      hosts: [primary],
      alerts: openAlerts([{ id: 'np', status: 'OPEN', eventTypeName: 'NO_PRIMARY', replicaSetName: 'rs0' }]),
    });
    const f = joinProject(r, now);
    expect(f.sets[0]!.writability).toMatchObject({ writable: true, primary: 'db-01:27017' });
    expect(f.contradictions).toEqual([
      { kind: 'primary pings and there is no primary', set: 'rs0', primary: 'db-01:27017', alertId: 'np' },
    ]);
  });

  it('marks a process behind its goal since the goal was published, and failing with an error', () => {
    const r = records({
      automation: {
        goalVersion: 5,
        processes: [
          { name: 'p0', lastGoalVersionAchieved: 5, plan: [] },
          { name: 'p1', lastGoalVersionAchieved: 4, errorCode: 48 },
        ],
      },
      publishes: [{ id: 'e9', created: ago(50), username: 'priya' }],
    });
    expect(joinProject(r, now).processes).toEqual([
      { process: expect.objectContaining({ name: 'p0' }) },
      {
        process: expect.objectContaining({ name: 'p1' }),
        behind: { since: ago(50), by: 'priya', failing: true },
      },
    ]);
  });
});
