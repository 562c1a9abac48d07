// The organization, its four projects and their hosts: replica sets, a sharded cluster, a standalone.

import type { HostRec, ProjectRec } from '../records.js';
import { type Build, DAY } from './gen.js';

export const DOMAIN = 'example.internal';
const ORG_NAME = 'Northwind Data Platform';

export interface Topology {
  name: string;
  tags: string[];
  disks: string[];
  goalVersion: number;
  /** Replica sets: name, hostname prefix, first host number, member count, port, member type prefix. */
  sets: Array<{ rs: string; prefix: string; from: number; count: number; port: number; kind: string }>;
  mongos?: { prefix: string; count: number };
  standalone?: string;
  cluster?: string;
}

/** The projects in creation order (ids are drawn in this order). */
export const TOPOLOGY: Topology[] = [
  {
    name: 'payments-prod',
    tags: ['production', 'pci'],
    disks: ['nvme0n1', 'nvme1n1'],
    goalVersion: 57,
    sets: [
      { rs: 'rs-payments', prefix: 'db-prod', from: 1, count: 3, port: 27017, kind: 'REPLICA' },
      { rs: 'rs-ledger', prefix: 'db-prod', from: 4, count: 3, port: 27017, kind: 'REPLICA' },
    ],
  },
  {
    name: 'search-staging',
    tags: ['staging'],
    disks: ['xvdb', 'xvdf'],
    goalVersion: 23,
    sets: [{ rs: 'rs-search', prefix: 'db-stg', from: 1, count: 3, port: 27017, kind: 'REPLICA' }],
  },
  {
    name: 'analytics-prod',
    tags: ['production', 'reporting'],
    disks: ['sda1', 'sdb'],
    goalVersion: 112,
    cluster: 'analytics',
    sets: [
      { rs: 'analytics-shard-0', prefix: 'db-analytics', from: 1, count: 3, port: 27018, kind: 'SHARD' },
      { rs: 'analytics-shard-1', prefix: 'db-analytics', from: 4, count: 3, port: 27018, kind: 'SHARD' },
      { rs: 'analytics-config', prefix: 'cfg-analytics', from: 1, count: 3, port: 27019, kind: 'CONFIG' },
    ],
    mongos: { prefix: 'mongos-analytics', count: 2 },
  },
  {
    name: 'platform-dev',
    tags: ['development'],
    disks: ['nvme0n1'],
    goalVersion: 9,
    sets: [{ rs: 'rs-dev', prefix: 'db-dev', from: 1, count: 3, port: 27017, kind: 'REPLICA' }],
    standalone: 'db-dev-04',
  },
];

const pad = (n: number): string => String(n).padStart(2, '0');

export function buildTopology(b: Build): void {
  const { r, data } = b;
  const org = { id: r.id(), name: ORG_NAME, created: b.at(-420 * DAY) };
  data.orgs.push(org);
  for (const [i, topo] of TOPOLOGY.entries()) {
    const project: ProjectRec = {
      id: r.id(),
      name: topo.name,
      orgId: org.id,
      created: b.at(-(400 - i * 60) * DAY),
      tags: topo.tags,
    };
    data.projects.push(project);
    const clusterId = topo.cluster === undefined ? undefined : r.id();
    const addHost = (hostname: string, port: number, typeName: string, rs?: string, cid?: string): void => {
      const host: HostRec = {
        id: r.hex(32),
        groupId: project.id,
        hostname,
        port,
        typeName,
        created: b.at(-(300 - i * 40) * DAY + r.int(0, 10) * DAY),
        lastPing: b.ago(5_000, 55_000),
        disks: topo.disks,
      };
      if (rs !== undefined) host.replicaSetName = rs;
      if (cid !== undefined) host.clusterId = cid;
      data.hosts.push(host);
    };
    for (const set of topo.sets) {
      const rsClusterId = clusterId ?? r.id();
      for (let n = 0; n < set.count; n++) {
        const role =
          set.kind === 'CONFIG' ? 'SHARD_CONFIG' : `${set.kind}_${n === 0 ? 'PRIMARY' : 'SECONDARY'}`;
        addHost(`${set.prefix}-${pad(set.from + n)}.${DOMAIN}`, set.port, role, set.rs, rsClusterId);
      }
    }
    if (topo.mongos !== undefined) {
      for (let n = 1; n <= topo.mongos.count; n++) {
        addHost(`${topo.mongos.prefix}-${pad(n)}.${DOMAIN}`, 27017, 'SHARD_MONGOS', undefined, clusterId);
      }
    }
    if (topo.standalone !== undefined) addHost(`${topo.standalone}.${DOMAIN}`, 27017, 'STANDALONE');
  }
}

export function hostsOf(b: Build, project: ProjectRec): HostRec[] {
  return b.data.hosts.filter((h) => h.groupId === project.id);
}
