// The simulator's in-memory model. Everything lives in one plain-JSON `StoreData` document so that a
// snapshot is a deep copy and a restore is a parse; the routes read and change it directly.
// Secrets (private keys, integration secrets) are stored in full here and masked by the routes on output;
// user passwords are kept only as salted scrypt hashes.

import { randomBytes, randomUUID, scryptSync } from 'node:crypto';
import { buildDemoDataset } from './dataset.js';
import type { KeyRecord, RoleAssignment } from './types.js';

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

export type AlertStatus = 'TRACKING' | 'OPEN' | 'CLOSED' | 'CANCELLED';

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
  typeName: 'MONITORING' | 'BACKUP' | 'AUTOMATION';
  hostname: string;
  confCount: number;
  lastConf: string;
  stateName: 'ACTIVE' | 'STANDBY' | 'NO_PROCESSES';
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

export interface AutomationRec {
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

export interface CreateStoreOptions {
  dataset: 'demo' | 'empty';
  seed?: number;
  now: () => Date;
}

const DEFAULT_SEED = 20260101;

const COLLECTIONS = [
  'orgs',
  'projects',
  'users',
  'apiKeys',
  'alertConfigs',
  'alerts',
  'globalAlertConfigs',
  'globalAlerts',
  'maintenanceWindows',
  'integrations',
  'agents',
  'automation',
  'hosts',
  'events',
  'globalEvents',
] as const;

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

export function createStore(options: CreateStoreOptions): Store {
  const data =
    options.dataset === 'demo' ? buildDemoDataset(options.seed ?? DEFAULT_SEED, options.now()) : emptyData();
  return new Store(data, options.now);
}

export class Store {
  constructor(
    readonly data: StoreData,
    readonly now: () => Date,
  ) {}

  get demo(): DemoInfo {
    return this.data.demo;
  }

  get fixtures(): Fixtures | undefined {
    return this.data.fixtures;
  }

  findApiKey(publicKey: string): ApiKeyRec | undefined {
    return this.data.apiKeys.find((k) => k.publicKey === publicKey);
  }

  /**
   * Whether the key may be used from remoteAddress: a key whose owning user has a non-empty access list
   * must come from an address in it. An allowed use is recorded on the matching entry.
   */
  checkAccessList(key: KeyRecord, remoteAddress: string, now: Date): boolean {
    const user = this.ownerOf(key);
    if (user === undefined || user.accessList.length === 0) return true;
    const address = normalizeAddress(remoteAddress);
    const entry = user.accessList.find((e) => entryMatches(e, address));
    if (entry === undefined) return false;
    entry.lastUsed = timestamp(now);
    entry.lastUsedAddress = address;
    entry.count += 1;
    return true;
  }

  snapshot(): StoreData {
    return structuredClone(this.data);
  }

  static fromSnapshot(input: unknown, now: () => Date): Store {
    if (typeof input !== 'object' || input === null) throw new Error('simulator snapshot is not an object');
    const data = input as Partial<StoreData>;
    if (data.version !== 1)
      throw new Error(`simulator snapshot has unsupported version ${String(data.version)}`);
    for (const name of COLLECTIONS) {
      if (!Array.isArray(data[name])) throw new Error(`simulator snapshot lacks the ${name} collection`);
    }
    const demo = data.demo;
    if (typeof demo !== 'object' || demo === null || !Array.isArray(demo.projectIds)) {
      throw new Error('simulator snapshot lacks the demo key information');
    }
    return new Store(structuredClone(data as StoreData), now);
  }

  project(id: string): ProjectRec | undefined {
    return this.data.projects.find((p) => p.id === id);
  }

  org(id: string): OrgRec | undefined {
    return this.data.orgs.find((o) => o.id === id);
  }

  user(id: string): UserRec | undefined {
    return this.data.users.find((u) => u.id === id);
  }

  /** The user who owns the key, when it has one. */
  ownerOf(key: KeyRecord): UserRec | undefined {
    return key.userId === undefined ? undefined : this.user(key.userId);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Identifiers, timestamps and passwords

/** 24 lowercase hex characters, like a 12-byte object id. */
export function newObjectId(): string {
  return randomBytes(12).toString('hex');
}

/** 8 lowercase letters, the public half of a key in the field. */
export function newPublicKey(): string {
  const bytes = randomBytes(8);
  return Array.from(bytes, (b) => String.fromCharCode(97 + (b % 26))).join('');
}

export function newPrivateKey(): string {
  return randomUUID();
}

/** ISO 8601 in UTC without milliseconds, as the API prints timestamps. */
export function timestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export function hashPassword(password: string, salt: string = randomBytes(16).toString('hex')): string {
  // A low work factor: this hash protects demo data, and the dataset hashes several passwords per start.
  const hash = scryptSync(password, salt, 32, { N: 1024 }).toString('hex');
  return `scrypt$${salt}$${hash}`;
}

// ---------------------------------------------------------------------------------------------------------
// Access-list matching (IPv4 CIDR math; IPv6 by exact address)

/** Strips the IPv4-mapped IPv6 prefix that Node reports on dual-stack sockets. */
export function normalizeAddress(address: string): string {
  const lower = address.trim().toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice(7) : lower;
}

export function parseIpv4(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = value * 256 + n;
  }
  return value;
}

/** Whether `address` lies in `cidr` (IPv4 a.b.c.d/n, or an exact IPv6 /128 or bare address). */
export function cidrContains(cidr: string, address: string): boolean {
  const [base = '', bitsText] = cidr.split('/');
  const ip = parseIpv4(address);
  const net = parseIpv4(base);
  if (ip === undefined || net === undefined) {
    return (bitsText === undefined || bitsText === '128') && normalizeAddress(base) === address;
  }
  const bits = bitsText === undefined ? 32 : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > 32) return false;
  if (bits === 0) return true;
  const size = 2 ** (32 - bits);
  return Math.floor(ip / size) === Math.floor(net / size);
}

export function entryMatches(entry: AccessListEntryRec, address: string): boolean {
  if (entry.ipAddress !== undefined && normalizeAddress(entry.ipAddress) === address) return true;
  return entry.cidrBlock !== undefined && cidrContains(entry.cidrBlock, address);
}

/** Builds an access-list entry from an address or a CIDR block; undefined when it is neither. */
export function accessListEntry(value: string, now: Date): AccessListEntryRec | undefined {
  const [base = '', bits] = value.split('/');
  const v4 = parseIpv4(base) !== undefined;
  const v6 = !v4 && /^[0-9a-f:]+$/i.test(base) && base.includes(':');
  if (!v4 && !v6) return undefined;
  const max = v4 ? 32 : 128;
  if (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max)) return undefined;
  const created = timestamp(now);
  if (bits === undefined || Number(bits) === max) {
    return { ipAddress: base.toLowerCase(), cidrBlock: `${base.toLowerCase()}/${max}`, created, count: 0 };
  }
  return { cidrBlock: value.toLowerCase(), created, count: 0 };
}
