// Alert configurations of the projects, and the global alert configurations with their alerts.
// Every notification type appears somewhere, each with its secrets in full (masked by the routes).

import type { EventType, MatcherFieldName, NotificationType, Unit } from '../../vocabulary/index.js';
import type {
  AlertConfigRec,
  GlobalAlertConfigRec,
  MatcherRec,
  MetricThresholdRec,
  NotificationRec,
  ThresholdRec,
} from '../records.js';
import { timestamp } from '../values.js';
import { type Build, DAY } from './gen.js';
import { configOf } from './state.js';
import { DOMAIN } from './topology.js';
import { WORLD } from './world.js';

const metric = (
  metricName: string,
  operator: string,
  threshold: number,
  units: Unit,
): MetricThresholdRec => ({
  metricName,
  mode: 'AVERAGE',
  operator,
  threshold,
  units,
});
const limit = (operator: string, threshold: number, units: Unit): ThresholdRec => ({
  operator,
  threshold,
  units,
});
const m = (fieldName: MatcherFieldName, operator: string, value: string): MatcherRec => ({
  fieldName,
  operator,
  value,
});
/** Some records spell the matcher's key `field`. */
const mf = (field: MatcherFieldName, operator: string, value: string): MatcherRec => ({
  field,
  operator,
  value,
});

interface ConfigSpec {
  project: string;
  event: EventType;
  metric?: MetricThresholdRec;
  threshold?: ThresholdRec;
  matchers: MatcherRec[];
  notify: NotificationType[];
  enabled?: boolean;
}

const CONFIGS: ConfigSpec[] = [
  {
    project: 'payments-prod',
    event: 'OUTSIDE_METRIC_THRESHOLD',
    metric: metric('ASSERT_REGULAR', 'GREATER_THAN', 10, 'RAW'),
    matchers: [m('TYPE_NAME', 'EQUALS', 'PRIMARY')],
    notify: ['GROUP', 'TEAM_CHAT_B'],
  },
  {
    project: 'payments-prod',
    event: 'OUTSIDE_METRIC_THRESHOLD',
    metric: metric('CONNECTIONS', 'GREATER_THAN', 4000, 'RAW'),
    matchers: [mf('REPLICA_SET_NAME', 'EQUALS', 'rs-payments')],
    notify: ['INCIDENT_PAGING_A', 'EMAIL'],
  },
  {
    project: 'payments-prod',
    event: 'OUTSIDE_METRIC_THRESHOLD',
    metric: metric('DISK_PARTITION_SPACE_USED_DATA', 'GREATER_THAN', 85, 'RAW'),
    matchers: [m('HOSTNAME', 'CONTAINS', 'db-prod')],
    notify: ['WEBHOOK', 'USER'],
  },
  {
    project: 'payments-prod',
    event: 'HOST_DOWN',
    threshold: limit('GREATER_THAN', 5, 'MINUTES'),
    matchers: [],
    notify: ['INCIDENT_PAGING_B', 'SMS'],
  },
  {
    project: 'payments-prod',
    event: 'REPLICATION_OPLOG_WINDOW_RUNNING_OUT',
    threshold: limit('LESS_THAN', 24, 'HOURS'),
    matchers: [mf('REPLICA_SET_NAME', 'EQUALS', 'rs-ledger')],
    notify: ['TEAM_CHAT_A'],
  },
  {
    project: 'payments-prod',
    event: 'MONITORING_AGENT_DOWN',
    threshold: limit('GREATER_THAN', 10, 'MINUTES'),
    matchers: [],
    notify: ['ORG'],
  },
  {
    project: 'search-staging',
    event: 'OUTSIDE_METRIC_THRESHOLD',
    metric: metric('QUERY_TARGETING_SCANNED_OBJECTS_PER_RETURNED', 'GREATER_THAN', 1000, 'RAW'),
    matchers: [m('REPLICA_SET_NAME', 'EQUALS', 'rs-search')],
    notify: ['TEAM_CHAT_C'],
  },
  {
    project: 'search-staging',
    event: 'RESYNC_REQUIRED',
    threshold: limit('GREATER_THAN', 0, 'RAW'),
    matchers: [],
    notify: ['EMAIL'],
    enabled: false,
  },
  {
    project: 'search-staging',
    event: 'HOST_DOWN',
    threshold: limit('GREATER_THAN', 15, 'MINUTES'),
    matchers: [m('HOSTNAME_AND_PORT', 'EQUALS', `db-stg-03.${DOMAIN}:27017`)],
    notify: ['INCIDENT_PAGING_C'],
  },
  {
    project: 'analytics-prod',
    event: 'OUTSIDE_METRIC_THRESHOLD',
    metric: metric('DISK_PARTITION_SPACE_USED_INDEX', 'GREATER_THAN', 90, 'RAW'),
    matchers: [mf('CLUSTER_NAME', 'EQUALS', 'analytics')],
    notify: ['MONITORING_SAAS'],
  },
  {
    project: 'analytics-prod',
    event: 'OUTSIDE_METRIC_THRESHOLD',
    metric: metric('OPLOG_SLAVE_LAG_MASTER_TIME', 'GREATER_THAN', 60, 'SECONDS'),
    matchers: [m('TYPE_NAME', 'EQUALS', 'SECONDARY')],
    notify: ['GROUP', 'WEBHOOK'],
  },
  {
    project: 'analytics-prod',
    event: 'OUTSIDE_METRIC_THRESHOLD',
    metric: metric('MEMORY_RESIDENT', 'GREATER_THAN', 28, 'GIGABYTES'),
    matchers: [m('SHARD_NAME', 'EQUALS', 'analytics-shard-0')],
    notify: ['EMAIL'],
  },
  {
    project: 'analytics-prod',
    event: 'BACKUP_AGENT_DOWN',
    threshold: limit('GREATER_THAN', 15, 'MINUTES'),
    matchers: [],
    notify: ['INCIDENT_PAGING_A'],
  },
  {
    project: 'analytics-prod',
    event: 'NO_PRIMARY',
    threshold: limit('GREATER_THAN', 2, 'MINUTES'),
    matchers: [mf('CLUSTER_NAME', 'EQUALS', 'analytics')],
    notify: ['INCIDENT_PAGING_B'],
  },
  {
    project: 'platform-dev',
    event: 'OUTSIDE_METRIC_THRESHOLD',
    metric: metric('CONNECTIONS', 'GREATER_THAN', 500, 'RAW'),
    matchers: [],
    notify: ['EMAIL'],
    enabled: false,
  },
  {
    project: 'platform-dev',
    event: 'MONITORING_AGENT_DOWN',
    threshold: limit('GREATER_THAN', 10, 'MINUTES'),
    matchers: [],
    notify: ['USER'],
  },
];

interface GlobalConfigSpec {
  event: EventType;
  threshold?: ThresholdRec;
  metric?: MetricThresholdRec;
  /** The projects it applies to; all when absent. */
  projects?: string[];
  notify: NotificationType[];
}

const GLOBAL_CONFIGS: GlobalConfigSpec[] = [
  {
    event: 'HOST_DOWN',
    threshold: limit('GREATER_THAN', 15, 'MINUTES'),
    notify: ['EMAIL'],
  },
  {
    event: 'BACKUP_AGENT_DOWN',
    threshold: limit('GREATER_THAN', 30, 'MINUTES'),
    notify: ['INCIDENT_PAGING_A'],
  },
  {
    event: 'OUTSIDE_METRIC_THRESHOLD',
    metric: metric('DISK_PARTITION_SPACE_USED_DATA', 'GREATER_THAN', 95, 'RAW'),
    projects: ['payments-prod', 'analytics-prod'],
    notify: ['EMAIL', 'WEBHOOK'],
  },
];

/** Whom the USER notifications page. */
const NOTIFIED_USER = 'priya.raman@example.com';

/** The type's own fields, secrets in full (drawn from the PRNG, so in this order). */
function secretFor(b: Build, typeName: NotificationType): Record<string, unknown> {
  const { r } = b;
  switch (typeName) {
    case 'GROUP':
      return { emailEnabled: true, smsEnabled: false, roles: ['GROUP_OWNER', 'GROUP_MONITORING_ADMIN'] };
    case 'ORG':
      return { emailEnabled: true, smsEnabled: false, roles: ['ORG_OWNER'] };
    case 'USER':
      return { username: b.user(NOTIFIED_USER).username, emailEnabled: true, smsEnabled: true };
    case 'EMAIL':
      return { emailAddress: 'dba-oncall@example.com' };
    case 'SMS':
      return { mobileNumber: '+15555550177' };
    case 'TEAM_CHAT_A':
      return { notificationToken: r.hex(40), roomName: 'db-alerts' };
    case 'TEAM_CHAT_B':
      return { apiToken: `xoxb-${r.chars(12, '0123456789')}-${r.hex(24)}`, channelName: '#db-alerts' };
    case 'TEAM_CHAT_C':
      return {
        teamChatCWebhookUrl: `https://chat-c.example.com/webhookb2/${r.uuid()}/IncomingWebhook/${r.hex(32)}`,
      };
    case 'INCIDENT_PAGING_A':
      return { serviceKey: r.hex(32) };
    case 'INCIDENT_PAGING_B':
      return { incidentPagingBApiKey: r.uuid(), incidentPagingBRegion: 'US' };
    case 'INCIDENT_PAGING_C':
      return { incidentPagingCApiKey: r.uuid(), incidentPagingCRoutingKey: 'db-platform' };
    case 'WEBHOOK':
      return { webhookUrl: `https://hooks.example.net/dbops/${r.hex(16)}`, webhookSecret: r.hex(32) };
    case 'MONITORING_SAAS':
      return { monitoringSaasApiKey: r.hex(32) };
  }
}

function notification(b: Build, typeName: NotificationType): NotificationRec {
  return {
    typeName,
    delayMin: b.r.pick([0, 0, 5, 10]),
    intervalMin: b.r.pick([5, 15, 60]),
    ...secretFor(b, typeName),
  };
}

export function buildAlertConfigs(b: Build): void {
  const { r } = b;
  for (const spec of CONFIGS) {
    const created = b.ago(40 * DAY, 300 * DAY);
    const config: AlertConfigRec = {
      id: r.id(),
      groupId: b.project(spec.project).id,
      created,
      updated: timestamp(new Date(Date.parse(created) + r.int(0, 30) * DAY)),
      enabled: spec.enabled ?? true,
      eventTypeName: spec.event,
      matchers: spec.matchers,
      notifications: spec.notify.map((t) => notification(b, t)),
    };
    if (spec.metric !== undefined) config.metricThreshold = spec.metric;
    if (spec.threshold !== undefined) config.threshold = spec.threshold;
    b.data.alertConfigs.push(config);
  }
}

/** The global configurations (their alerts follow from the world: alerts.ts). */
export function buildGlobalAlertConfigs(b: Build): void {
  const { r, data } = b;
  for (const spec of GLOBAL_CONFIGS) {
    const created = b.ago(100 * DAY, 380 * DAY);
    const projects = spec.projects?.map((name) => b.project(name));
    const config: GlobalAlertConfigRec = {
      id: r.id(),
      created,
      updated: created,
      enabled: true,
      eventTypeName: spec.event,
      forAllGroups: projects === undefined,
      groupIds: (projects ?? []).map((p) => p.id),
      matchers: [],
      notifications: spec.notify.map((t) => notification(b, t)),
      tags: ['platform'],
      ...(spec.threshold === undefined ? {} : { threshold: spec.threshold }),
      ...(spec.metric === undefined ? {} : { metricThreshold: spec.metric }),
    };
    data.globalAlertConfigs.push(config);
  }
}

/**
 * The world's changes to the configurations: a changed threshold (the configuration's current one must be
 * the change's result) and when; enabled or disabled, and when.
 */
export function applyConfigChanges(b: Build): void {
  for (const c of WORLD.thresholdChanges) {
    const config = configOf(b, c.config);
    const now = config.metricThreshold ?? config.threshold;
    if (now?.threshold !== c.to)
      throw new Error(`demo world: thresholdChanges: ${c.config.event} is at ${now?.threshold}, not ${c.to}`);
    config.updated = b.at(c.at);
  }
  for (const t of [...WORLD.toggles].sort((x, y) => x.at - y.at)) {
    const config = configOf(b, t.config);
    config.enabled = t.enabled;
    if (Date.parse(config.updated) < b.now.getTime() + t.at) config.updated = b.at(t.at);
  }
}

/** Configuration references for checkWorld. */
export const CONFIG_REFS = [
  ...CONFIGS.map((c) => ({
    project: c.project,
    event: c.event,
    ...(c.metric ? { metric: c.metric.metricName } : {}),
  })),
  ...GLOBAL_CONFIGS.map((c) => ({ event: c.event, ...(c.metric ? { metric: c.metric.metricName } : {}) })),
];
