// The simulator's in-memory model: one plain-JSON `StoreData` document (records.ts) that the routes read
// and change directly; a snapshot is a deep copy and a restore is a parse. Secrets (private keys,
// integration secrets) are stored in full here and masked by the routes on output; user passwords are kept
// only as salted scrypt hashes.

import { buildDemoDataset } from './data/index.js';
import {
  type ApiKeyRec,
  type DemoInfo,
  emptyData,
  type Fixtures,
  type KeyRecord,
  type OrgRec,
  type ProjectRec,
  type StoreData,
  type UserRec,
} from './records.js';
import { entryMatches, normalizeAddress, timestamp } from './values.js';

interface CreateStoreOptions {
  dataset: 'demo' | 'empty';
  seed?: number;
  /** Projects in the installation: the demo's four, grown to this many (data/installation.ts). */
  projects?: number;
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

export function createStore(options: CreateStoreOptions): Store {
  const data =
    options.dataset === 'demo'
      ? buildDemoDataset(options.seed ?? DEFAULT_SEED, options.now(), options.projects)
      : emptyData();
  return new Store(data, options.now);
}

/** The collections whose records belong to one project (groupId), read per project by the routes. */
type ByProject =
  | 'alerts'
  | 'alertConfigs'
  | 'events'
  | 'maintenanceWindows'
  | 'hosts'
  | 'agents'
  | 'integrations';

interface ProjectIndex {
  list: readonly { groupId?: string }[];
  length: number;
  changes: number;
  by: Map<string, unknown[]>;
}

export class Store {
  /** Per-project views of the large collections: an installation of hundreds of projects is read per project. */
  private readonly indexes = new Map<ByProject, ProjectIndex>();
  /** Bumped after every change a route makes (server.ts): an index older than it is rebuilt. */
  private changes = 0;

  constructor(
    readonly data: StoreData,
    readonly now: () => Date,
  ) {}

  /** A change was made: per-project views are rebuilt on their next read. */
  changed(): void {
    this.changes++;
  }

  /**
   * The records of `name` in one project, in stored order. Rebuilt when the collection was replaced, grew or
   * shrank, or a route changed something since: records are plain data that routes and tests edit in place.
   */
  ofProject<K extends ByProject>(name: K, groupId: string): StoreData[K] {
    const list = this.data[name] as readonly { groupId?: string }[];
    let ix = this.indexes.get(name);
    if (!ix || ix.list !== list || ix.length !== list.length || ix.changes !== this.changes) {
      const by = new Map<string, unknown[]>();
      for (const x of list) {
        const g = x.groupId ?? '';
        const at = by.get(g);
        if (at) at.push(x);
        else by.set(g, [x]);
      }
      ix = { list, length: list.length, changes: this.changes, by };
      this.indexes.set(name, ix);
    }
    return (ix.by.get(groupId) ?? []) as StoreData[K];
  }

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
