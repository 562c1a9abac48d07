// The incident library: realistic incidents, each a small script that seeds a project of its own into the
// simulator's store (demo dataset: its org, users and GLOBAL_OWNER key) and returns what triage_project must
// name for an on-call engineer to act — asserted by id, and where it matters, next to the alert it explains.
// Plain JavaScript with no imports, so the tests (test/scenarios/) and `node bench/scenarios.mjs` (after a
// build) run the very same scripts.

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** A seeded world for one scenario: a new project with hosts, and helpers that add records to it. */
function world(data, now, name) {
  let n = 0;
  const id = () =>
    `5c0${name.length.toString(16)}${(++n).toString(16).padStart(4, '0')}${hash(name)}`.slice(0, 24);
  const at = (offsetMs) => `${new Date(now.getTime() + offsetMs).toISOString().slice(0, 19)}Z`;
  const org = data.orgs[0];
  const project = { id: id(), name, orgId: org.id, created: at(-90 * DAY), tags: ['scenario'] };
  data.projects.push(project);
  const user = data.users.find((u) => u.roles.some((r) => r.roleName === 'GLOBAL_OWNER'));
  const hosts = [0, 1, 2].map((i) => {
    const h = {
      id: id(),
      groupId: project.id,
      hostname: `${name}-${i}.db.example.internal`,
      port: 27017,
      typeName: i === 0 ? 'REPLICA_PRIMARY' : 'REPLICA_SECONDARY',
      replicaSetName: `rs-${name}`,
      created: at(-80 * DAY),
      lastPing: at(-MIN),
      disks: ['data', 'journal'],
    };
    data.hosts.push(h);
    return h;
  });
  data.automation.push({
    groupId: project.id,
    goalVersion: 12,
    processes: hosts.map((h, i) => ({
      name: `rs-${name}_${i}`,
      hostname: h.hostname,
      lastGoalVersionAchieved: 12,
      plan: [],
      errorCode: 0,
      errorCodeDescription: '',
      errorCodeHumanReadable: '',
      errorString: '',
      planUpdated: at(-2 * DAY),
    })),
  });
  const w = {
    project,
    hosts,
    at,
    id,
    config(fields) {
      const c = {
        id: id(),
        groupId: project.id,
        created: at(-60 * DAY),
        updated: at(-60 * DAY),
        enabled: true,
        matchers: [],
        notifications: [
          { typeName: 'EMAIL', delayMin: 0, intervalMin: 60, emailAddress: 'oncall@example.com' },
        ],
        ...fields,
      };
      data.alertConfigs.push(c);
      return c;
    },
    alert(config, host, agoMs, fields = {}) {
      const a = {
        id: id(),
        alertConfigId: config.id,
        groupId: project.id,
        created: at(-agoMs),
        updated: at(-agoMs),
        status: 'OPEN',
        eventTypeName: config.eventTypeName,
        hostId: host.id,
        hostnameAndPort: `${host.hostname}:${host.port}`,
        replicaSetName: host.replicaSetName,
        ...fields,
      };
      if (config.metricThreshold) a.metricName = config.metricThreshold.metricName;
      data.alerts.push(a);
      return a;
    },
    event(eventTypeName, agoMs, fields = {}) {
      const e = {
        id: id(),
        created: at(-agoMs),
        eventTypeName,
        groupId: project.id,
        userId: user.id,
        username: user.username,
        remoteAddress: '10.20.30.40',
        ...fields,
      };
      data.events.push(e);
      return e;
    },
    window(startMs, endMs, alertTypeNames, description) {
      const win = {
        id: id(),
        groupId: project.id,
        created: at(Math.min(startMs, 0) - DAY),
        updated: at(Math.min(startMs, 0) - DAY),
        startDate: at(startMs),
        endDate: at(endMs),
        alertTypeNames,
        description,
      };
      data.maintenanceWindows.push(win);
      return win;
    },
    /** Routine changes nobody needs to see first: the noise that pushed causes out of older answers. */
    noise(count, fromAgoMs, toAgoMs) {
      for (let i = 0; i < count; i++) {
        const ago = fromAgoMs - ((fromAgoMs - toAgoMs) * i) / Math.max(1, count - 1);
        w.event('USER_ROLES_CHANGED_AUDIT', ago, { targetUsername: `analyst${i}@example.com` });
      }
    },
  };
  return w;
}

function hash(s) {
  let h = 2166136261;
  for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h.toString(16).padStart(8, '0').repeat(3);
}

const metric = (metricName, operator, threshold, units = 'RAW') => ({
  metricName,
  operator,
  threshold,
  units,
  mode: 'AVERAGE',
});

/**
 * Each scenario: `seed(data, now)` adds its project and returns `{ projectId, expect }`, where `expect` lists
 * findings `{ id, why, near?, notNear? }`: `id` must appear in the text; `near` (an alert id) — the text
 * from that alert's cause heading to the next must also contain `id`; `notNear` — it must not.
 */
export const scenarios = [
  {
    name: 'disk-after-config-change',
    title: 'Disk filling after a configuration change (log verbosity raised)',
    seed(data, now) {
      const w = world(data, now, 'disk');
      const publish = w.event('AUTOMATION_CONFIG_PUBLISHED_AUDIT', 5 * HOUR, {
        diffs: [
          {
            status: 'MODIFIED',
            type: 'PROCESS',
            name: 'rs-disk_0',
            params: [{ param: 'systemLog.verbosity', old: '0', new: '5' }],
          },
        ],
      });
      const c = w.config({
        eventTypeName: 'OUTSIDE_METRIC_THRESHOLD',
        metricThreshold: metric('DISK_PARTITION_SPACE_USED_DATA', 'GREATER_THAN', 85),
      });
      const a = w.alert(c, w.hosts[0], 2 * HOUR, { currentValue: { number: 93.4, units: 'RAW' } });
      return {
        projectId: w.project.id,
        expect: [
          { id: publish.id, why: 'the configuration publish before the disk filled' },
          { id: 'systemLog.verbosity', why: 'what the publish changed' },
          { id: a.id, why: 'the disk alert' },
          { id: c.id, why: 'its configuration', near: a.id },
        ],
      };
    },
  },
  {
    name: 'host-down-in-window',
    title: 'Host down inside a maintenance window that mutes HOST alerts',
    seed(data, now) {
      const w = world(data, now, 'patching');
      const win = w.window(-HOUR, 2 * HOUR, ['HOST'], 'Rolling OS patching');
      const c = w.config({
        eventTypeName: 'HOST_DOWN',
        threshold: { operator: 'GREATER_THAN', threshold: 5, units: 'MINUTES' },
      });
      const a = w.alert(c, w.hosts[1], 20 * MIN);
      return {
        projectId: w.project.id,
        expect: [
          { id: a.id, why: 'the host-down alert' },
          { id: win.id, why: 'the window in force' },
          { id: 'muted', why: 'the alert is muted by it', near: a.id },
        ],
      };
    },
  },
  {
    name: 'host-down-outside-window',
    title: 'Host down outside any HOST window: one for BACKUP is in force, the HOST one starts tomorrow',
    seed(data, now) {
      const w = world(data, now, 'outside');
      w.window(-HOUR, 3 * HOUR, ['BACKUP'], 'Backup daemon upgrade');
      const next = w.window(20 * HOUR, 22 * HOUR, ['HOST', 'REPLICA_SET'], 'Kernel upgrade');
      const c = w.config({
        eventTypeName: 'HOST_DOWN',
        threshold: { operator: 'GREATER_THAN', threshold: 5, units: 'MINUTES' },
      });
      const a = w.alert(c, w.hosts[2], 35 * MIN);
      return {
        projectId: w.project.id,
        expect: [
          { id: a.id, why: 'the host-down alert' },
          { id: next.id, why: 'the HOST window that will mute it, not yet in force', near: a.id },
          { id: '· muted', why: 'nothing mutes it now', notNear: a.id },
        ],
      };
    },
  },
  {
    name: 'member-down-automation-behind',
    title: 'Replica set member down with automation behind its goal',
    seed(data, now) {
      const w = world(data, now, 'member');
      const status = data.automation.find((x) => x.groupId === w.project.id);
      status.goalVersion = 13;
      const p = status.processes[2];
      Object.assign(p, {
        lastGoalVersionAchieved: 12,
        plan: ['Download', 'Start', 'WaitRsInit'],
        errorCode: 1,
        errorCodeDescription: 'Failed to start mongod',
        errorString: 'mongod exited with code 100: insufficient disk space for the journal',
        planUpdated: w.at(-40 * MIN),
      });
      for (const q of status.processes.slice(0, 2)) q.lastGoalVersionAchieved = 13;
      const publish = w.event('AUTOMATION_CONFIG_PUBLISHED_AUDIT', 50 * MIN, {
        diffs: [
          {
            status: 'MODIFIED',
            type: 'PROCESS',
            name: p.name,
            params: [{ param: 'version', old: '7.0.12', new: '7.0.14' }],
          },
        ],
      });
      const c = w.config({
        eventTypeName: 'HOST_DOWN',
        threshold: { operator: 'GREATER_THAN', threshold: 5, units: 'MINUTES' },
      });
      const a = w.alert(c, w.hosts[2], 30 * MIN);
      return {
        projectId: w.project.id,
        expect: [
          { id: a.id, why: 'the member-down alert' },
          { id: p.name, why: 'the process behind the goal, on the alert host', near: a.id },
          { id: 'Download → Start → WaitRsInit', why: 'its remaining plan' },
          { id: 'insufficient disk space for the journal', why: 'why it cannot start' },
          { id: publish.id, why: 'the upgrade that started it' },
        ],
      };
    },
  },
  {
    name: 'alert-storm-after-threshold-change',
    title: 'Alert storm after a threshold was lowered, buried under later routine changes',
    seed(data, now) {
      const w = world(data, now, 'storm');
      const c = w.config({
        eventTypeName: 'OUTSIDE_METRIC_THRESHOLD',
        metricThreshold: metric('CONNECTIONS', 'GREATER_THAN', 400),
      });
      const change = w.event('ALERT_CONFIG_CHANGED_AUDIT', 20 * HOUR, { alertConfigId: c.id });
      const alerts = w.hosts.map((h, i) =>
        w.alert(c, h, 19 * HOUR - i * 10 * MIN, { currentValue: { number: 900 + i, units: 'RAW' } }),
      );
      w.noise(25, 18 * HOUR, 30 * MIN);
      return {
        projectId: w.project.id,
        expect: [
          { id: change.id, why: 'the threshold change before the storm', near: alerts[0].id },
          ...alerts.map((a) => ({ id: a.id, why: 'an alert of the storm' })),
          { id: 'left out', why: 'the trimmed routine changes are counted' },
        ],
      };
    },
  },
  {
    name: 'config-disabled-during-incident',
    title: 'An alert configuration disabled while its alert is open',
    seed(data, now) {
      const w = world(data, now, 'silenced');
      const c = w.config({
        eventTypeName: 'REPLICATION_OPLOG_WINDOW_RUNNING_OUT',
        threshold: { operator: 'LESS_THAN', threshold: 24, units: 'HOURS' },
        enabled: false,
      });
      const a = w.alert(c, w.hosts[1], 3 * HOUR, { currentValue: { number: 7, units: 'HOURS' } });
      const off = w.event('ALERT_CONFIG_DISABLED_AUDIT', HOUR, { alertConfigId: c.id });
      return {
        projectId: w.project.id,
        expect: [
          { id: a.id, why: 'the open alert' },
          { id: off.id, why: 'the disabling, next to the alert', near: a.id },
          { id: 'is disabled now', why: 'the configuration state, next to the alert', near: a.id },
        ],
      };
    },
  },
  {
    name: 'global-alert-on-project-host',
    title: "A global alert (disk at 127 %) on one of the project's hosts",
    seed(data, now) {
      const w = world(data, now, 'globaldisk');
      const gc = {
        id: w.id(),
        created: w.at(-200 * DAY),
        updated: w.at(-200 * DAY),
        enabled: true,
        eventTypeName: 'OUTSIDE_METRIC_THRESHOLD',
        forAllGroups: true,
        groupIds: [],
        matchers: [],
        metricThreshold: metric('DISK_PARTITION_SPACE_USED_DATA', 'GREATER_THAN', 95),
        notifications: [{ typeName: 'EMAIL', delayMin: 0, intervalMin: 60 }],
        tags: ['platform'],
      };
      data.globalAlertConfigs.push(gc);
      const host = w.hosts[0];
      const g = {
        id: w.id(),
        alertConfigId: gc.id,
        groupId: w.project.id,
        created: w.at(-6 * HOUR),
        updated: w.at(-6 * HOUR),
        status: 'OPEN',
        eventTypeName: 'OUTSIDE_METRIC_THRESHOLD',
        metricName: 'DISK_PARTITION_SPACE_USED_DATA',
        hostId: host.id,
        hostnameAndPort: `${host.hostname}:${host.port}`,
        currentValue: { number: 127.19, units: 'RAW' },
      };
      data.globalAlerts.push(g);
      return {
        projectId: w.project.id,
        expect: [
          { id: g.id, why: 'the global alert' },
          { id: gc.id, why: 'its global configuration', near: g.id },
          { id: '127.19', why: 'how full the disk is', near: g.id },
          { id: 'acknowledge_global_alert', why: 'the call that acknowledges it' },
          { id: 'list_open_global_alerts_for_config', why: 'the call that reads its configuration' },
        ],
      };
    },
  },
  {
    name: 'data-operation-before-errors',
    title: 'A bulk delete through the data explorer, then assertion errors',
    seed(data, now) {
      const w = world(data, now, 'dataop');
      const read = w.event('DATA_EXPLORER', 2 * HOUR, {
        database: 'payments',
        collection: 'ledger',
        opType: 'FIND',
      });
      const del = w.event('DATA_EXPLORER_CRUD', 70 * MIN, {
        database: 'payments',
        collection: 'ledger',
        opType: 'DELETE',
      });
      const c = w.config({
        eventTypeName: 'OUTSIDE_METRIC_THRESHOLD',
        metricThreshold: metric('ASSERT_REGULAR', 'GREATER_THAN', 10),
      });
      const a = w.alert(c, w.hosts[0], 50 * MIN, { currentValue: { number: 31.5, units: 'RAW' } });
      return {
        projectId: w.project.id,
        expect: [
          { id: del.id, why: 'the delete before the errors' },
          { id: 'DELETE on payments.ledger', why: 'what it deleted' },
          { id: a.id, why: 'the assertion alert' },
        ],
        absent: [{ id: read.id, why: 'a read is not a change' }],
      };
    },
  },
  {
    name: 'agent-down',
    title: 'The monitoring agent is down: metrics stopped, other alerts cannot fire',
    seed(data, now) {
      const w = world(data, now, 'agent');
      data.agents.push({
        groupId: w.project.id,
        typeName: 'MONITORING',
        hostname: w.hosts[1].hostname,
        confCount: 120,
        lastConf: w.at(-40 * MIN),
        stateName: 'ACTIVE',
        lastPing: w.at(-40 * MIN),
      });
      const c = w.config({
        eventTypeName: 'MONITORING_AGENT_DOWN',
        threshold: { operator: 'GREATER_THAN', threshold: 10, units: 'MINUTES' },
      });
      const a = w.alert(c, w.hosts[1], 28 * MIN, { hostId: undefined, replicaSetName: undefined });
      return {
        projectId: w.project.id,
        expect: [
          { id: a.id, why: 'the agent-down alert' },
          // Hosts by their first label beside the alert, the domain they all share said once in the heading.
          { id: `on ${w.hosts[1].hostname.split('.')[0]}`, why: 'where the agent runs', near: a.id },
          { id: `hosts *.${w.hosts[1].hostname.split('.').slice(1).join('.')}`, why: "the hosts' domain" },
          { id: c.id, why: 'its configuration', near: a.id },
        ],
      };
    },
  },
];

/** The text of the cause block holding `alertId`: from its heading to the next heading or fence end. */
function blockOf(text, alertId) {
  const at = text.indexOf(alertId);
  if (at < 0) return '';
  const start = text.lastIndexOf('\n####', at);
  const ends = ['\n####', '\n- **', '\n</data-'].map((m) => text.indexOf(m, at)).filter((i) => i >= 0);
  return text.slice(start < 0 ? 0 : start, ends.length ? Math.min(...ends) : text.length);
}

/** Which expected findings the answer text misses (empty: solved). */
export function missing(text, expected) {
  const out = [];
  for (const f of expected.expect) {
    const ok = f.near
      ? blockOf(text, f.near).includes(f.id)
      : f.notNear
        ? !blockOf(text, f.notNear).includes(f.id) && text.includes(f.notNear)
        : text.includes(f.id);
    if (!ok) out.push(f);
  }
  for (const f of expected.absent ?? []) if (text.includes(f.id)) out.push(f);
  return out;
}
