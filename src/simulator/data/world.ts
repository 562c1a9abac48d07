// The demo's one world state: which agent runs where, what each deployment did, which hosts and agents went
// quiet and when, what the metrics read, who changed what, which windows exist and why. Alerts (open and
// closed), events, agent states, host pings, metric values and automation status are all derived from it
// (agents.ts, automation.ts, alerts.ts, ../derive-events.ts); nothing there is drawn at random that this file
// could contradict. Times are offsets from "now" in milliseconds (negative: ago). docs/demo-world.md tells the
// story; test/unit/demo-world.test.ts checks that every open alert, agent state and automation status
// follows from it. checkWorld() (../derive-check.ts) refuses a world that contradicts itself before anything
// is built.

import { DAY, HOUR, MINUTE } from './gen.js';
import type { Host, Reading, World } from './world-types.js';

const PRIYA = 'priya.raman@example.com';
const MARCUS = 'marcus.chen@example.com';
const SOFIA = 'sofia.alvarez@example.com';
const DANA = 'dana.okafor@example.com';
const ADMIN = 'ops-admin@example.com';

const disk = (host: Host, value: number, since: number, until?: number): Reading => ({
  host,
  metric: 'DISK_PARTITION_SPACE_USED_DATA',
  value,
  units: 'RAW',
  since,
  ...(until === undefined ? {} : { until }),
});

const QT = 'QUERY_TARGETING_SCANNED_OBJECTS_PER_RETURNED';

/** A month of routine episodes that came and went: host, metric, value, units, days ago, hours it lasted. */
const PAST: Array<[Host, string, number, string, number, number]> = [
  ['db-prod-01', 'CONNECTIONS', 4105, 'RAW', 27, 2],
  ['db-prod-02', 'CONNECTIONS', 4220, 'RAW', 21, 1],
  ['db-prod-03', 'CONNECTIONS', 4050, 'RAW', 15, 0.5],
  ['db-prod-01', 'ASSERT_REGULAR', 12, 'RAW', 18, 1],
  ['db-prod-04', 'ASSERT_REGULAR', 11, 'RAW', 9, 0.5],
  ['db-prod-02', 'DISK_PARTITION_SPACE_USED_DATA', 91.2, 'RAW', 25, 6],
  ['db-prod-05', 'DISK_PARTITION_SPACE_USED_DATA', 95.2, 'RAW', 23, 1],
  ['db-prod-05', 'DISK_PARTITION_SPACE_USED_DATA', 90.8, 'RAW', 16, 4],
  ['db-prod-06', 'OPLOG_WINDOW', 21, 'HOURS', 19, 3],
  ['db-prod-04', 'OPLOG_WINDOW', 22, 'HOURS', 11, 2],
  ['db-stg-01', QT, 1450, 'RAW', 22, 1],
  ['db-stg-02', QT, 1210, 'RAW', 13, 2],
  ['db-stg-03', QT, 2600, 'RAW', 3, 1],
  ['db-analytics-03', 'DISK_PARTITION_SPACE_USED_INDEX', 90.9, 'RAW', 24, 5],
  ['db-analytics-06', 'DISK_PARTITION_SPACE_USED_INDEX', 91.4, 'RAW', 12, 3],
  ['db-analytics-02', 'OPLOG_SLAVE_LAG_MASTER_TIME', 75, 'SECONDS', 26, 0.5],
  ['db-analytics-05', 'OPLOG_SLAVE_LAG_MASTER_TIME', 130, 'SECONDS', 17, 1],
  ['db-analytics-03', 'OPLOG_SLAVE_LAG_MASTER_TIME', 68, 'SECONDS', 6, 0.5],
  ['db-analytics-01', 'MEMORY_RESIDENT', 29.1, 'GIGABYTES', 20, 8],
  ['db-analytics-02', 'MEMORY_RESIDENT', 28.7, 'GIGABYTES', 10, 5],
  ['db-analytics-02', 'DISK_PARTITION_SPACE_USED_DATA', 95.6, 'RAW', 14, 2],
];

export const WORLD: World = {
  agents: {
    'payments-prod': [
      { type: 'MONITORING', host: 'db-prod-01', state: 'ACTIVE' },
      { type: 'MONITORING', host: 'db-prod-04', state: 'STANDBY' },
      { type: 'BACKUP', host: 'db-prod-02', state: 'ACTIVE' },
      { type: 'BACKUP', host: 'db-prod-05', state: 'STANDBY' },
    ],
    'search-staging': [
      { type: 'MONITORING', host: 'db-stg-01', state: 'ACTIVE' },
      { type: 'BACKUP', host: 'db-stg-03', state: 'NO_PROCESSES' },
    ],
    'analytics-prod': [
      { type: 'MONITORING', host: 'mongos-analytics-01', state: 'ACTIVE' },
      { type: 'MONITORING', host: 'mongos-analytics-02', state: 'STANDBY' },
      { type: 'BACKUP', host: 'db-analytics-01', state: 'ACTIVE' },
      { type: 'BACKUP', host: 'db-analytics-06', state: 'STANDBY' },
    ],
    'platform-dev': [
      { type: 'MONITORING', host: 'db-dev-01', state: 'ACTIVE' },
      { type: 'MONITORING', host: 'db-dev-04', state: 'NO_PROCESSES' },
      { type: 'BACKUP', host: 'db-dev-02', state: 'STANDBY' },
    ],
  },
  automationAgents: { 'db-dev-04': 'NO_PROCESSES', 'mongos-analytics-02': 'STANDBY' },

  deployments: [
    {
      project: 'search-staging',
      at: -4 * DAY,
      by: SOFIA,
      goalVersion: 23,
      change: { display: 'Version', param: 'version', old: '7.0.12', new: '7.0.14' },
      hosts: ['db-stg-01', 'db-stg-02', 'db-stg-03'],
      done: ['db-stg-01', 'db-stg-02', 'db-stg-03'],
      plan: [],
    },
    {
      // The deployment that is stuck: rs-ledger to 7.0.14 during the patching window; the third member's
      // mongod does not come back because the old process still holds the port.
      project: 'payments-prod',
      at: -50 * MINUTE,
      by: PRIYA,
      goalVersion: 57,
      change: { display: 'Version', param: 'version', old: '7.0.12', new: '7.0.14' },
      hosts: ['db-prod-04', 'db-prod-05', 'db-prod-06'],
      done: ['db-prod-04', 'db-prod-05'],
      plan: ['Download', 'Start', 'WaitRsInit'],
      fails: {
        host: 'db-prod-06',
        at: -36 * MINUTE,
        code: 3,
        human: 'Process failed to start',
        error: 'exit status 48 (address already in use): the old mongod still holds port 27017',
      },
    },
    {
      // Rolling feature-compatibility change on shard 0, in progress.
      project: 'analytics-prod',
      at: -15 * MINUTE,
      by: SOFIA,
      goalVersion: 112,
      change: {
        display: 'Feature compatibility version',
        param: 'featureCompatibilityVersion',
        old: '6.0',
        new: '7.0',
      },
      hosts: ['db-analytics-01', 'db-analytics-02', 'db-analytics-03'],
      done: ['db-analytics-01'],
      plan: ['Download', 'Start', 'WaitFeatureCompatibilityVersionCorrect'],
    },
  ],

  outages: [
    {
      host: 'db-prod-06',
      from: -38 * MINUTE,
      machine: false,
      why: 'mongod stopped for the 7.0.14 upgrade and fails to start again (exit status 48)',
    },
    { host: 'db-analytics-04', from: -25 * MINUTE, machine: true, why: 'rack B lost power' },
    { host: 'db-analytics-05', from: -25 * MINUTE, machine: true, why: 'rack B lost power' },
    {
      host: 'db-stg-03',
      from: -6 * DAY,
      to: -6 * DAY + 40 * MINUTE,
      machine: true,
      why: 'hypervisor migration',
    },
    {
      host: 'db-prod-02',
      from: -12 * DAY,
      to: -12 * DAY + 12 * MINUTE,
      machine: false,
      why: 'mongod restart',
    },
  ],

  silences: [
    {
      project: 'payments-prod',
      type: 'MONITORING',
      host: 'db-prod-04',
      from: -45 * MINUTE,
      why: 'not restarted after db-prod-04 was rebooted for OS patching',
    },
    {
      project: 'analytics-prod',
      type: 'BACKUP',
      host: 'db-analytics-01',
      from: -2 * HOUR,
      why: 'the backup agent process exited (out of memory)',
    },
    {
      project: 'platform-dev',
      type: 'MONITORING',
      host: 'db-dev-01',
      from: -9 * DAY,
      to: -9 * DAY + 25 * MINUTE,
      why: 'agent upgrade',
    },
    {
      project: 'analytics-prod',
      type: 'BACKUP',
      host: 'db-analytics-06',
      from: -15 * DAY,
      to: -15 * DAY + 50 * MINUTE,
      why: 'disk full on the agent host',
    },
  ],

  readings: [
    // payments-prod, now: connections over 4000 on the rs-payments primary (pages through PagerDuty), two
    // data partitions between the old and the new disk threshold, a short oplog window on rs-ledger.
    { host: 'db-prod-01', metric: 'CONNECTIONS', value: 4412, units: 'RAW', since: -2 * HOUR },
    disk('db-prod-03', 87.4, -3 * DAY),
    disk('db-prod-04', 88.9, -5 * DAY),
    { host: 'db-prod-05', metric: 'OPLOG_WINDOW', value: 19, units: 'HOURS', since: -6 * HOUR },
    // search-staging: query targeting just crossed its threshold (tracking, not yet notified).
    {
      host: 'db-stg-02',
      metric: 'QUERY_TARGETING_SCANNED_OBJECTS_PER_RETURNED',
      value: 2350,
      units: 'RAW',
      since: -4 * MINUTE,
    },
    // analytics-prod: index partition, resident memory on shard 0, a data partition past the global 95.
    {
      host: 'db-analytics-03',
      metric: 'DISK_PARTITION_SPACE_USED_INDEX',
      value: 92.5,
      units: 'RAW',
      since: -9 * HOUR,
    },
    {
      host: 'db-analytics-01',
      metric: 'MEMORY_RESIDENT',
      value: 30.5,
      units: 'GIGABYTES',
      since: -14 * HOUR,
    },
    disk('db-analytics-02', 96.1, -30 * HOUR),
    // History: episodes that ended.
    {
      host: 'db-prod-02',
      metric: 'CONNECTIONS',
      value: 4310,
      units: 'RAW',
      since: -8 * DAY,
      until: -8 * DAY + 3 * HOUR,
    },
    {
      host: 'db-prod-01',
      metric: 'ASSERT_REGULAR',
      value: 14,
      units: 'RAW',
      since: -4 * DAY,
      until: -4 * DAY + HOUR,
    },
    disk('db-prod-04', 95.4, -7 * DAY, -7 * DAY + 5 * HOUR),
    {
      host: 'db-analytics-06',
      metric: 'OPLOG_SLAVE_LAG_MASTER_TIME',
      value: 95,
      units: 'SECONDS',
      since: -2 * DAY,
      until: -2 * DAY + 30 * MINUTE,
    },
    ...PAST.map(
      ([host, metric, value, units, days, hours]): Reading => ({
        host,
        metric,
        value,
        units,
        since: -days * DAY,
        until: -days * DAY + hours * HOUR,
      }),
    ),
    {
      host: 'db-stg-01',
      metric: QT,
      value: 1800,
      units: 'RAW',
      since: -5 * DAY,
      until: -5 * DAY + 20 * MINUTE,
      cancelled: true,
    },
  ],

  thresholdChanges: [
    {
      config: {
        project: 'payments-prod',
        event: 'OUTSIDE_METRIC_THRESHOLD',
        metric: 'DISK_PARTITION_SPACE_USED_DATA',
      },
      by: DANA,
      at: -23 * HOUR,
      from: 90,
      to: 85,
    },
  ],

  toggles: [
    {
      config: { project: 'search-staging', event: 'RESYNC_REQUIRED' },
      by: SOFIA,
      at: -12 * DAY,
      enabled: false,
    },
    {
      config: { project: 'platform-dev', event: 'OUTSIDE_METRIC_THRESHOLD', metric: 'CONNECTIONS' },
      by: SOFIA,
      at: -25 * DAY,
      enabled: false,
    },
  ],

  rotations: [
    {
      project: 'payments-prod',
      integration: 'INCIDENT_PAGING_A',
      by: PRIYA,
      at: -3 * DAY,
      stale: [{ project: 'payments-prod', event: 'OUTSIDE_METRIC_THRESHOLD', metric: 'CONNECTIONS' }],
    },
  ],

  windows: [
    {
      project: 'payments-prod',
      start: -1 * HOUR,
      end: 2 * HOUR,
      alertTypeNames: ['HOST', 'REPLICA_SET'],
      description: 'Rolling OS patching of rs-ledger; project-wide on purpose (rs-payments too)',
      by: PRIYA,
    },
    {
      project: 'payments-prod',
      start: -10 * DAY,
      end: -10 * DAY + 3 * HOUR,
      alertTypeNames: ['HOST'],
      description: 'Kernel upgrade',
      by: PRIYA,
    },
    {
      project: 'search-staging',
      start: 1 * DAY,
      end: 1 * DAY + 4 * HOUR,
      alertTypeNames: ['HOST', 'REPLICA_SET', 'AGENT'],
      description: 'Index rebuild on rs-search',
      by: SOFIA,
    },
    {
      project: 'analytics-prod',
      start: 3 * DAY,
      end: 3 * DAY + 6 * HOUR,
      alertTypeNames: ['CLUSTER', 'BACKUP'],
      by: MARCUS,
    },
    {
      project: 'analytics-prod',
      start: -20 * DAY,
      end: -20 * DAY + 2 * HOUR,
      alertTypeNames: ['CLUSTER'],
      description: 'Balancer window change',
      by: SOFIA,
    },
    {
      project: 'platform-dev',
      start: 7 * DAY,
      end: 7 * DAY + 1 * HOUR,
      alertTypeNames: ['AGENT'],
      description: 'Agent upgrade',
      by: SOFIA,
    },
  ],

  acks: [
    {
      config: {
        project: 'payments-prod',
        event: 'OUTSIDE_METRIC_THRESHOLD',
        metric: 'DISK_PARTITION_SPACE_USED_DATA',
      },
      host: 'db-prod-03',
      by: DANA,
      at: -20 * HOUR,
      until: 10 * HOUR,
      comment: 'Log cleanup scheduled tonight',
    },
    {
      config: { event: 'HOST_DOWN' },
      host: 'db-analytics-04',
      by: ADMIN,
      at: -8 * MINUTE,
      until: 6 * HOUR,
      comment: 'Rack B power loss: facilities on site',
    },
    {
      config: { project: 'analytics-prod', event: 'OUTSIDE_METRIC_THRESHOLD', metric: 'MEMORY_RESIDENT' },
      host: 'db-analytics-01',
      by: MARCUS,
      at: -12 * HOUR,
      until: -2 * HOUR,
      comment: 'Expected during the batch import',
    },
  ],

  invitations: [
    { project: 'search-staging', person: MARCUS, role: 'GROUP_READ_ONLY', by: SOFIA, at: -2 * DAY },
  ],
};

/** Percent-like metrics: never above 100. */
export const PERCENT_METRICS = ['DISK_PARTITION_SPACE_USED_DATA', 'DISK_PARTITION_SPACE_USED_INDEX'];
