// The platform's rules (src/rules/), each once: what each decides, on the records' own shapes.
import { describe, expect, it } from 'vitest';
import {
  ackInForce,
  acknowledgement,
  agentSilent,
  agentTypeOfAlert,
  alertTypeOf,
  atGoal,
  behindGoal,
  byUrgency,
  causeTier,
  dataAvailability,
  differentKey,
  hostState,
  lapsedAck,
  lastHeard,
  muting,
  pagesOf,
  paging,
  pagingServices,
  projectTier,
  sameKey,
  severity,
  silenceThreshold,
  stillDone,
  windowName,
  writability,
} from '../../src/rules/index.js';

const now = new Date('2026-11-28T06:00:00Z');
const ago = (min: number) => new Date(now.getTime() - min * 60_000).toISOString();
const ahead = (min: number) => new Date(now.getTime() + min * 60_000).toISOString();

describe('severity and data availability', () => {
  it('calls data availability critical and everything else (an agent down too) a warning', () => {
    for (const t of ['HOST_DOWN', 'NO_PRIMARY', 'RESYNC_REQUIRED', 'CLUSTER_MONGOS_IS_MISSING']) {
      expect(dataAvailability(t)).toBe(true);
      expect(severity(t)).toBe('critical');
    }
    for (const t of ['MONITORING_AGENT_DOWN', 'OUTSIDE_METRIC_THRESHOLD', undefined]) {
      expect(dataAvailability(t)).toBe(false);
      expect(severity(t)).toBe('warning');
    }
  });

  it('places an event type under the alert type a window mutes, and names the agent of an agent-down', () => {
    expect(alertTypeOf('OUTSIDE_METRIC_THRESHOLD')).toBe('HOST');
    expect(alertTypeOf('NO_PRIMARY')).toBe('REPLICA_SET');
    expect(alertTypeOf('MONITORING_AGENT_DOWN')).toBe('AGENT');
    expect(alertTypeOf('BACKUP_AGENT_DOWN')).toBe('BACKUP');
    expect(alertTypeOf('CLUSTER_MONGOS_IS_MISSING')).toBe('CLUSTER');
    expect(agentTypeOfAlert('AUTOMATION_AGENT_DOWN')).toBe('AUTOMATION');
    expect(agentTypeOfAlert('HOST_DOWN')).toBeUndefined();
  });
});

describe('ranking', () => {
  const c = (o: Partial<Parameters<typeof byUrgency>[0]>) => ({
    open: true,
    muted: false,
    eventTypeName: 'OUTSIDE_METRIC_THRESHOLD',
    newest: 0,
    ...o,
  });
  it('puts open before dealt with, unmuted before muted, critical before warning, newest first', () => {
    const order = [
      c({ open: false, eventTypeName: 'HOST_DOWN' }),
      c({ muted: true, eventTypeName: 'HOST_DOWN' }),
      c({ newest: 5 }),
      c({ newest: 9 }),
      c({ eventTypeName: 'NO_PRIMARY' }),
    ].sort(byUrgency);
    expect(order.map((x) => [x.open, x.muted, x.eventTypeName, x.newest])).toEqual([
      [true, false, 'NO_PRIMARY', 0],
      [true, false, 'OUTSIDE_METRIC_THRESHOLD', 9],
      [true, false, 'OUTSIDE_METRIC_THRESHOLD', 5],
      [true, true, 'HOST_DOWN', 0],
      [false, false, 'HOST_DOWN', 0],
    ]);
  });

  it('tiers a cause and a project by what is worst', () => {
    const t = { tracking: false, loud: 2, dataAvailability: false, paging: true };
    expect(causeTier(t)).toBe('unmuted paging');
    expect(causeTier({ ...t, loud: 0 })).toBe('muted or acknowledged');
    expect(causeTier({ ...t, tracking: true })).toBe('informational');
    expect(projectTier(['unmuted alerts'], { failing: true, silentAgent: false, behind: true })).toBe(
      'unmuted data availability',
    );
    expect(projectTier([], { failing: false, silentAgent: false, behind: false })).toBe('quiet');
  });
});

describe('paging', () => {
  it('pages through incident-paging integrations of both dialects and SMS', () => {
    for (const [t, s] of [
      ['INCIDENT_PAGING_A', 'PagerDuty'],
      ['PAGER_DUTY', 'PagerDuty'],
      ['OPS_GENIE', 'OpsGenie'],
      ['INCIDENT_PAGING_C', 'VictorOps'],
      ['SMS', 'SMS'],
    ])
      expect(paging({ typeName: t })?.service).toBe(s);
    expect(paging({ typeName: 'EMAIL' })).toBeUndefined();
    expect(paging({ typeName: 'WEBHOOK' })).toBeUndefined();
  });

  it('pages by SMS through a USER, GROUP or ORG target with smsEnabled, and only then', () => {
    expect(paging({ typeName: 'USER', username: 'priya', smsEnabled: true })).toEqual({
      service: 'SMS',
      typeName: 'USER',
      to: { username: 'priya' },
    });
    expect(paging({ typeName: 'GROUP', roles: ['GROUP_OWNER'], smsEnabled: true })?.to).toEqual({
      roles: ['GROUP_OWNER'],
    });
    expect(paging({ typeName: 'ORG', smsEnabled: false })).toBeUndefined();
    expect(paging({ typeName: 'USER', username: 'priya' })).toBeUndefined();
    const c = {
      notifications: [{ typeName: 'EMAIL' }, { typeName: 'USER', smsEnabled: true }, { typeName: 'SMS' }],
    };
    expect(pagesOf(c)).toHaveLength(2);
    expect(pagingServices(c)).toEqual(['SMS']);
  });

  it('flags a key that differs from the project integration of that type, by the visible ending', () => {
    const integrations = [{ type: 'INCIDENT_PAGING_A', serviceKey: '******ab12' }];
    expect(
      differentKey({ typeName: 'INCIDENT_PAGING_A', serviceKey: '******ab12' }, integrations),
    ).toBeUndefined();
    expect(differentKey({ typeName: 'PAGER_DUTY', serviceKey: '******ff00' }, integrations)).toMatchObject({
      integrationType: 'INCIDENT_PAGING_A',
    });
    // No integration of that type: the notification carries its own key.
    expect(
      differentKey({ typeName: 'INCIDENT_PAGING_B', incidentPagingBApiKey: '******0000' }, integrations),
    ).toBeUndefined();
    // Nothing visible to compare: not flagged.
    expect(
      differentKey({ typeName: 'INCIDENT_PAGING_A', serviceKey: '********' }, integrations),
    ).toBeUndefined();
    expect(
      differentKey({ typeName: 'OPS_GENIE', opsGenieApiKey: '******9999' }, [
        { type: 'OPS_GENIE', apiKey: '******1111' },
      ]),
    ).toMatchObject({ integrationType: 'INCIDENT_PAGING_B' });
  });

  it('reads a masked key one way: by its ending, and only when at least three characters show', () => {
    expect(sameKey('******ab12', '****b12')).toBe(true);
    expect(sameKey('******ab12', '******ab13')).toBe(false);
    expect(sameKey('******1a', '******ff00')).toBeUndefined();
    // The notification's key shows too little to tell it from the integration's: not flagged as different.
    const integrations = [{ type: 'INCIDENT_PAGING_A', serviceKey: '******ff00' }];
    expect(
      differentKey({ typeName: 'INCIDENT_PAGING_A', serviceKey: '******1a' }, integrations),
    ).toBeUndefined();
  });
});

describe('windows', () => {
  const w = (o: object) => ({
    id: 'w1',
    startDate: ago(10),
    endDate: ahead(50),
    alertTypeNames: ['HOST'],
    ...o,
  });
  it('mutes by alert type project-wide, says which window and why, ignores ended ones', () => {
    expect(muting('HOST_DOWN', [w({})], now)).toMatchObject({ id: 'w1', state: 'active', alertType: 'HOST' });
    expect(muting('NO_PRIMARY', [w({})], now)).toBeUndefined();
    expect(muting('HOST_DOWN', [w({ endDate: ago(1) })], now)).toBeUndefined();
    expect(muting('HOST_DOWN', [w({ startDate: ahead(5) })], now)?.state).toBe('upcoming');
  });

  it('names a window by its description, cut, else by its id', () => {
    expect(windowName({ id: 'w1', description: 'Patch rs-ledger' })).toBe('"Patch rs-ledger"');
    expect(windowName({ id: 'w1' })).toBe('window w1');
    expect(windowName({ id: 'w1', description: 'x'.repeat(100) }, 10)).toBe(`"${'x'.repeat(9)}…"`);
  });
});

describe('acknowledgements', () => {
  it('says by whom, until when and why while it lasts', () => {
    const a = {
      acknowledgedUntil: ahead(60),
      acknowledgingUsername: 'sofia',
      acknowledgementComment: 'Rack B',
    };
    expect(ackInForce(a, now)).toBe(true);
    expect(acknowledgement(a, now)).toEqual({ until: a.acknowledgedUntil, by: 'sofia', comment: 'Rack B' });
    expect(acknowledgement({ ...a, acknowledgedUntil: ago(1) }, now)).toBeUndefined();
  });

  it('finds a lapsed acknowledgement: an ack event for an alert open and unacknowledged now', () => {
    const ack = { id: 'e1', alertId: 'a1', eventTypeName: 'ALERT_ACKNOWLEDGED_AUDIT', created: ago(120) };
    expect(lapsedAck({ id: 'a1', status: 'OPEN' }, [ack], now)).toBe(ack);
    expect(lapsedAck({ id: 'a1', status: 'CLOSED' }, [ack], now)).toBeUndefined();
    expect(lapsedAck({ id: 'a1', status: 'OPEN', acknowledgedUntil: ahead(5) }, [ack], now)).toBeUndefined();
    const withdrawn = { ...ack, id: 'e2', eventTypeName: 'ALERT_UNACKNOWLEDGED_AUDIT', created: ago(60) };
    expect(lapsedAck({ id: 'a1', status: 'OPEN' }, [ack, withdrawn], now)).toBeUndefined();
  });
});

describe('hosts and writability', () => {
  const h = { id: 'h1', hostname: 'db-04', port: 27017, typeName: 'SHARD_PRIMARY', replicaSetName: 'sh0' };
  const down = {
    id: 'al1',
    status: 'OPEN',
    eventTypeName: 'HOST_DOWN',
    hostnameAndPort: 'db-04:27017',
    created: ago(20),
  };
  it('says pinging, or down since its last ping with its role last known', () => {
    expect(hostState({ ...h, lastPing: ago(1) }, [], now)).toMatchObject({
      state: 'pinging',
      roleLastKnown: false,
    });
    expect(hostState({ ...h, lastPing: ago(25) }, [down], now)).toMatchObject({
      state: 'down',
      downSince: ago(25),
      roleLastKnown: true,
      downAlertId: 'al1',
    });
  });

  it('keeps both records when a host pings and has an open HOST_DOWN', () => {
    expect(hostState({ ...h, lastPing: ago(1) }, [down], now)).toMatchObject({
      state: 'disputed',
      contradiction: { lastPing: ago(1), hostDownAlertId: 'al1' },
    });
  });

  it('calls a set writable only with a primary that pings', () => {
    const primary = { host: h, state: hostState({ ...h, lastPing: ago(25) }, [], now) };
    const sHost = { ...h, id: 'h2', hostname: 'db-05', typeName: 'SHARD_SECONDARY' };
    const secondary = { host: sHost, state: hostState({ ...sHost, lastPing: ago(1) }, [], now) };
    expect(writability([primary, secondary])).toMatchObject({
      writable: false,
      lastKnownPrimaries: ['db-04:27017'],
    });
    const live = { host: h, state: hostState({ ...h, lastPing: ago(1) }, [], now) };
    expect(writability([live, secondary], 'np1')).toMatchObject({
      writable: true,
      primary: 'db-04:27017',
      contradiction: { primary: 'db-04:27017', noPrimaryAlertId: 'np1' },
    });
  });
});

describe('agents and automation', () => {
  it('judges an agent silent past its configuration threshold, else the default', () => {
    const configs = [{ eventTypeName: 'MONITORING_AGENT_DOWN', threshold: { threshold: 1, units: 'HOURS' } }];
    expect(silenceThreshold('MONITORING', configs)).toEqual({ minutes: 60, from: 'configuration' });
    expect(silenceThreshold('BACKUP', configs)).toEqual({ minutes: 10, from: 'default' });
    expect(lastHeard('BACKUP', { lastPing: ago(1), lastConf: ago(30) })).toEqual({
      lastSeen: ago(30),
      seenBy: 'lastConf',
    });
    expect(agentSilent(ago(30), 10, now)).toBe(true);
    expect(agentSilent(ago(30), 60, now)).toBe(false);
    expect(agentSilent(undefined, 10, now)).toBe(false);
  });

  it("says a type's work is done while an active agent of it is heard, whoever else is silent", () => {
    const agent = (stateName: string, silent: boolean) => ({ agent: { stateName }, silent });
    expect(stillDone([agent('ACTIVE', false), agent('STANDBY', true)])).toBe(true);
    expect(stillDone([agent('ACTIVE', true), agent('STANDBY', false)])).toBe(false);
    expect(stillDone([agent('NO_PROCESSES', false)])).toBe(false);
    expect(stillDone([])).toBe(false);
  });

  it('calls a process behind its goal since the goal was published, pending plan steps included', () => {
    expect(atGoal({ lastGoalVersionAchieved: 5, plan: [] }, 5)).toBe(true);
    expect(atGoal({ lastGoalVersionAchieved: 5, plan: ['Start'] }, 5)).toBe(false);
    expect(behindGoal({ lastGoalVersionAchieved: 5 }, 5)).toBeUndefined();
    expect(
      behindGoal({ lastGoalVersionAchieved: 4, errorCode: 3 }, 5, { created: ago(40), username: 'marcus' }),
    ).toEqual({
      since: ago(40),
      by: 'marcus',
      failing: true,
    });
  });
});
