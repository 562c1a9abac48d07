// Hosts: the monitored processes of a project (hostId values for alerts and disks), and one disk partition.
import type { Host } from '../src/api/client.js';
import { age } from '../src/format/markdown.js';
import { listAnswer, listOutput, pageQuery, recordAnswer, recordOutput } from './common.js';
import { defineTool, projectOf } from './define.js';
import { ids, page } from './ids.js';

const disksOf = (h: Host): string[] | undefined => {
  const d = (h as Record<string, unknown>).disks;
  return Array.isArray(d) ? d.map(String) : undefined;
};

export const listHosts = defineTool({
  name: 'list_hosts',
  title: 'List hosts',
  description:
    "Lists a project's monitored hosts (processes): hostId, host:port, type, replica set, last ping, disks. Use to find hostId and partition names. (beyond the spec: some servers lack it)",
  kind: 'read',
  input: { projectId: ids.project.optional(), ...page },
  output: listOutput,
  run: (ctx, args) => ctx.api.hosts.list(projectOf(args, ctx), pageQuery(args), { signal: ctx.signal }),
  format: (result, args, f) => {
    const withDisks = result.results.some((h) => disksOf(h) !== undefined);
    const columns = ['hostId', 'host', 'type', 'replica set', 'last ping'];
    return listAnswer(
      result,
      pageQuery(args),
      {
        title: `Hosts of project ${args.projectId ?? '(default)'}`,
        columns: withDisks ? [...columns, 'disks'] : columns,
        row: (h: Host) => {
          const row = [
            h.id,
            h.port !== undefined ? `${h.hostname ?? '?'}:${h.port}` : h.hostname,
            h.typeName,
            h.replicaSetName,
            age((h as Record<string, unknown>).lastPing, f.now),
          ];
          return withDisks ? [...row, (disksOf(h) ?? []).join(', ')] : row;
        },
        next: 'get_disk_partition with a hostId and partition name; list_agents for the agents',
        empty: 'No hosts are monitored in this project.',
      },
      f,
    );
  },
});

export const getDiskPartition = defineTool({
  name: 'get_disk_partition',
  title: 'Get a disk partition',
  description:
    'Shows one disk partition of a host as the platform reports it. Use when a disk alert names a host and device; list_hosts gives the ids.',
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    hostId: ids.host,
    partitionName: ids.partition,
    responseFormat: page.responseFormat,
  },
  output: recordOutput,
  run: (ctx, args) =>
    ctx.api.hosts.diskPartition(projectOf(args, ctx), args.hostId, args.partitionName, {
      signal: ctx.signal,
    }),
  format: (d, args, f) =>
    recordAnswer(
      `Disk partition ${args.partitionName} of host ${args.hostId}`,
      d,
      // The spec names only partitionName; servers add more, so show every plain field they send.
      (s) =>
        Object.entries(s)
          .filter(([k, v]) => k !== 'links' && (v === null || typeof v !== 'object'))
          .map(([k, v]) => [k, v] as [string, unknown]),
      f,
    ),
});

export const hostTools = [listHosts, getDiskPartition];
