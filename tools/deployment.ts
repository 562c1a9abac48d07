// The deployment toolset: hosts, disk partitions and agent links.
import { z } from 'zod';
import type { DiskPartition, Page } from '../src/api/client.js';
import { hostsEverywhere } from '../src/feeds/everywhere-lists.js';
import { loadProjectHosts } from '../src/feeds/hosts.js';
import { whereIs } from '../src/feeds/names.js';
import { agentLinksAnswer, partitionAnswer, partitionsAnswer } from '../src/format/views/deployment.js';
import { hostsAcross } from '../src/format/views/deployment-all.js';
import { hostsAnswer, whereAnswer } from '../src/format/views/deployment-hosts.js';
import { ids, page, text } from '../src/tool/ids.js';
import {
  ALL_PROJECTS,
  acrossQuery,
  defineTool,
  listOutput,
  pageQuery,
  type ToolAnswer,
} from '../src/tool/index.js';
import type { AGENT_TYPES } from '../src/vocabulary/index.js';

// Real servers prefix rels with a vendor URL; only the suffix is meaningful.
const REL_SUFFIX: Record<string, (typeof AGENT_TYPES)[number]> = {
  '/monitoringAgents': 'MONITORING',
  '/backupAgents': 'BACKUP',
  '/automationAgents': 'AUTOMATION',
};

export const getAgentLinks = defineTool({
  name: 'get_agent_links',
  title: 'Get links to agent resources',
  toolset: 'deployment',
  example: {},
  description:
    'Which agent lists a project offers. Rarely needed: list_agents with MONITORING, BACKUP or AUTOMATION.',
  kind: 'read',
  input: { projectId: ids.project.optional() },
  output: {
    agentTypes: z.array(z.string()),
    links: z.array(z.looseObject({ rel: z.string(), href: z.string() })),
  },
  run: (ctx, args) => ctx.api.agents.links(args.projectId, ctx.req),
  format: (r, args, f) => {
    const links = (r.links ?? []).map((l) => ({ rel: String(l.rel), href: String(l.href) }));
    const agentTypes = links.flatMap((l) => {
      const suffix = Object.keys(REL_SUFFIX).find((s) => l.rel.endsWith(s));
      return suffix ? [REL_SUFFIX[suffix] as string] : [];
    });
    return agentLinksAnswer(links, agentTypes, args.projectId, f);
  },
});

export const listHosts = defineTool({
  name: 'list_hosts',
  title: 'List hosts',
  toolset: 'deployment',
  example: {},
  description: `Hosts: hostId, type, replica set, last ping. Use host for "where is it?" in every project.`,
  beyondSpec: true,
  kind: 'read',
  acrossProjects: true,
  input: {
    projectId: ids.projects.optional(),
    host: text('host', 200).optional().describe('Name or id'),
    ...page,
  },
  output: listOutput,
  run: async (ctx, args) =>
    args.host
      ? { where: await whereIs(ctx.api, args.host, ctx.signal) }
      : args.projectId === ALL_PROJECTS
        ? { across: await hostsEverywhere(ctx) }
        : {
            hosts: await loadProjectHosts(ctx.api, args.projectId, pageQuery(args), {
              signal: ctx.signal,
              now: ctx.now(),
            }),
          },
  format: (result, args, f) =>
    result.where
      ? whereAnswer(result.where, f)
      : result.across
        ? hostsAcross(result.across, acrossQuery(args), f)
        : hostsAnswer(
            result.hosts!,
            pageQuery(args),
            {
              title: `Hosts of project ${f.names.project(args.projectId)}`,
              next: "list_hosts with host for one host's project, role and state; list_project_events with target=<host> and history=true for its outages",
              empty: 'No hosts are monitored in this project.',
            },
            f,
          ),
});

const isPage = (d: DiskPartition | Page<DiskPartition>): d is Page<DiskPartition> =>
  Array.isArray((d as Page<DiskPartition>).results);

export const getDiskPartition = defineTool({
  name: 'get_disk_partition',
  title: 'Get a disk partition',
  toolset: 'deployment',
  example: { hostId: '65ea5e02b598edb421f9c685486d0a1b' },
  description:
    "A host's disk partitions, by name only: the spec gives no size or usage (disk alerts' values do). Rarely needed.",
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    hostId: ids.host,
    partitionName: ids.partition.optional(),
    responseFormat: page.responseFormat,
  },
  output: { record: z.looseObject({}).optional(), partitions: z.array(z.string()).optional() },
  run: async (ctx, args): Promise<DiskPartition | Page<DiskPartition>> => {
    const projectId = args.projectId;
    const o = ctx.req;
    return args.partitionName
      ? ctx.api.hosts.diskPartition(projectId, args.hostId, args.partitionName, o)
      : ctx.api.hosts.listDisks(projectId, args.hostId, { itemsPerPage: 500 }, o);
  },
  format: (d, args, f): ToolAnswer =>
    isPage(d)
      ? partitionsAnswer(d.results, d.totalCount, args.hostId, f)
      : partitionAnswer(d, args.partitionName as string, args.hostId, f),
});

/** This set's tools, in the order tools/list shows them. */
export const tools = [getAgentLinks, listHosts, getDiskPartition];
