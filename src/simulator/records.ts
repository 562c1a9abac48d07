// The simulator's records: one plain-JSON `StoreData` document (a snapshot is a deep copy, a restore a
// parse). Types only, plus the empty document; this module imports nothing of the simulator, so the store,
// the demo dataset and the routes can all read it without a loop.

import type { AgentState, AgentType, AlertStatus } from '../vocabulary/index.js';

export interface RoleAssignment {
  orgId?: string;
  groupId?: string;
  roleName: string;
}

/** An API key as the auth layer needs it. */
export interface KeyRecord {
  id: string;
  publicKey: string;
  privateKey: string;
  desc: string;
  roles: RoleAssignment[];
  /** The user who owns the key, when there is one (access lists belong to users). */
  userId?: string;
}

export interface OrgRec {
  id: string;
  name: string;
  created: string;
}

export interface ProjectRec {
  id: string;
  name: string;
  orgId: string;
  created: string;
  tags: string[];
}

export interface AccessListEntryRec {
  /** Set for single addresses; cidrBlock is then the /32 (or /128) form. */
  ipAddress?: string;
  cidrBlock?: string;
  created: string;
  lastUsed?: string;
  lastUsedAddress?: string;
  count: number;
}

export interface UserRec {
  id: string;
  username: string;
  /** `scrypt$<salt hex>$<hash hex>`; never returned. */
  passwordHash: string;
  emailAddress?: string;
  mobileNumber?: string;
  firstName: string;
  lastName: string;
  roles: RoleAssignment[];
  /** Organization and project roles waiting for the user to accept an invitation. */
  pendingRoles: RoleAssignment[];
  teamIds: string[];
  accessList: AccessListEntryRec[];
  created: string;
}

export interface ApiKeyRec extends KeyRecord {
  created: string;
}

export interface MatcherRec {
  fieldName?: string;
  /** Some records spell the key `field`. */
  field?: string;
  operator: string;
  value: string;
}

export interface NotificationRec {
  typeName: string;
  delayMin: number;
  intervalMin: number;
  [field: string]: unknown;
}

export interface ThresholdRec {
  operator: string;
  threshold: number;
  units: string;
}

export interface MetricThresholdRec extends ThresholdRec {
  metricName: string;
  mode: string;
}

export interface AlertConfigRec {
  id: string;
  groupId: string;
  created: string;
  updated: string;
  enabled: boolean;
  eventTypeName: string;
  matchers: MatcherRec[];
  metricThreshold?: MetricThresholdRec;
  threshold?: ThresholdRec;
  notifications: NotificationRec[];
}

export interface GlobalAlertConfigRec {
  id: string;
  created: string;
  updated: string;
  enabled: boolean;
  eventTypeName: string;
  forAllGroups: boolean;
  groupIds: string[];
  matchers: MatcherRec[];
  metricThreshold?: MetricThresholdRec;
  threshold?: ThresholdRec;
  notifications: NotificationRec[];
  tags: string[];
}

export interface AlertRec {
  id: string;
  alertConfigId: string;
  groupId?: string;
  created: string;
  updated: string;
  status: AlertStatus;
  eventTypeName: string;
  resolved?: string;
  acknowledgedUntil?: string;
  acknowledgingUsername?: string;
  acknowledgementComment?: string;
  lastNotified?: string;
  hostId?: string;
  hostnameAndPort?: string;
  replicaSetName?: string;
  clusterId?: string;
  clusterName?: string;
  currentValue?: { number: number; units: string };
  metricName?: string;
  sourceTypeName?: string;
  tags?: string[];
}

export interface WindowRec {
  id: string;
  groupId: string;
  created: string;
  updated: string;
  startDate: string;
  endDate: string;
  alertTypeNames: string[];
  description?: string;
}

export interface IntegrationRec {
  groupId: string;
  type: string;
  /** The type's fields with secrets in full. */
  fields: Record<string, string | boolean>;
}

export interface AgentRec {
  groupId: string;
  typeName: AgentType;
  hostname: string;
  confCount: number;
  lastConf: string;
  stateName: AgentState;
  pingCount?: number;
  lastPing?: string;
  isManaged?: boolean;
  tag?: string;
}

export interface ProcessRec {
  name: string;
  hostname: string;
  lastGoalVersionAchieved: number;
  plan: string[];
  errorCode: number;
  errorCodeDescription: string;
  errorCodeHumanReadable: string;
  errorString: string;
  /** When the process's plan last changed; orders "the most recent plans". Not returned. */
  planUpdated: string;
}

interface AutomationRec {
  groupId: string;
  goalVersion: number;
  processes: ProcessRec[];
}

export interface HostRec {
  id: string;
  groupId: string;
  hostname: string;
  port: number;
  typeName: string;
  replicaSetName?: string;
  clusterId?: string;
  created: string;
  lastPing: string;
  /** Disk partition (device) names. */
  disks: string[];
}

/** An event as returned, plus `raw` (only shown with includeRaw on project events). */
export interface EventRec {
  id: string;
  created: string;
  eventTypeName: string;
  groupId?: string;
  orgId?: string;
  raw?: Record<string, unknown>;
  [field: string]: unknown;
}

export interface DemoInfo {
  publicKey: string;
  privateKey: string;
  orgId: string;
  projectIds: string[];
}

export interface FixtureKey {
  id: string;
  publicKey: string;
  privateKey: string;
}

/** Keys with narrow rights for tests of the error paths (demo dataset only). */
export interface Fixtures {
  /** GROUP_READ_ONLY on projectId only: writes there fail with USER_UNAUTHORIZED. */
  readOnly: FixtureKey & { projectId: string };
  /** GROUP_MONITORING_ADMIN on projectId: alert and window writes allowed, integrations not. */
  monitoringAdmin: FixtureKey & { projectId: string };
  /** Member of other projects of the org but not of projectId: NOT_IN_GROUP there. */
  notInProject: FixtureKey & { projectId: string };
  /** Owned by a user whose access list does not contain 127.0.0.1. */
  accessListDenied: FixtureKey & { userId: string };
  /** Owned by a user whose access list contains 127.0.0.1 (its bookkeeping is observable). */
  accessListAllowed: FixtureKey & { userId: string };
  /** GLOBAL_READ_ONLY. */
  globalReadOnly: FixtureKey;
}

export interface StoreData {
  version: 1;
  orgs: OrgRec[];
  projects: ProjectRec[];
  users: UserRec[];
  apiKeys: ApiKeyRec[];
  alertConfigs: AlertConfigRec[];
  alerts: AlertRec[];
  globalAlertConfigs: GlobalAlertConfigRec[];
  globalAlerts: AlertRec[];
  maintenanceWindows: WindowRec[];
  integrations: IntegrationRec[];
  agents: AgentRec[];
  automation: AutomationRec[];
  hosts: HostRec[];
  /** Project events (each has groupId). */
  events: EventRec[];
  /** Events outside any project (users, organizations, keys, global alerts). */
  globalEvents: EventRec[];
  /** Empty strings and no projects in the empty dataset. */
  demo: DemoInfo;
  fixtures?: Fixtures;
}

export function emptyData(): StoreData {
  return {
    version: 1,
    orgs: [],
    projects: [],
    users: [],
    apiKeys: [],
    alertConfigs: [],
    alerts: [],
    globalAlertConfigs: [],
    globalAlerts: [],
    maintenanceWindows: [],
    integrations: [],
    agents: [],
    automation: [],
    hosts: [],
    events: [],
    globalEvents: [],
    demo: { publicKey: '', privateKey: '', orgId: '', projectIds: [] },
  };
}
