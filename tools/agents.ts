// Agents: the monitoring, backup and automation agents of a project, and whether they are alive.
import { z } from 'zod';
import { listAnswer } from '../src/format/answers.js';
import { fields } from '../src/format/markdown.js';
import { agentList } from '../src/format/views/agents.js';
import { AGENT_TYPES } from '../src/platform/index.js';
import { ids, page } from '../src/tool/ids.js';
import { defineTool, listOutput, pageQuery } from '../src/tool/index.js';

export const listAgents = defineTool({
  name: 'list_agents',
  title: 'List agents of one type',
  description:
    "Lists a project's monitoring, backup or automation agents: host, state, last ping. Use when hosts stop reporting or an AGENT alert fires.",
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    agentType: z.enum(AGENT_TYPES).describe('Which agents to list'),
    ...page,
  },
  output: listOutput,
  run: (ctx, args) => ctx.api.agents.list(args.projectId, args.agentType, pageQuery(args), ctx.req),
  format: (result, args, f) =>
    listAnswer(
      result,
      pageQuery(args),
      {
        title: `${args.agentType} agents of project ${f.names.project(args.projectId)}`,
        ...agentList,
        next: 'list_hosts for the hosts they watch; get_automation_status for automation progress',
        empty: `No ${args.agentType} agents in this project.`,
      },
      f,
    ),
});

// Real servers prefix rels with a vendor URL; only the suffix is meaningful.
const REL_SUFFIX: Record<string, (typeof AGENT_TYPES)[number]> = {
  '/monitoringAgents': 'MONITORING',
  '/backupAgents': 'BACKUP',
  '/automationAgents': 'AUTOMATION',
};

export const getAgentLinks = defineTool({
  name: 'get_agent_links',
  title: 'Get links to agent resources',
  description:
    'Shows which agent lists a project offers. Rarely needed: call list_agents with MONITORING, BACKUP or AUTOMATION.',
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
    const calls = agentTypes.map((t) => `list_agents with agentType=${t}`);
    return {
      text: [
        `# Agent resources of project ${f.names.project(args.projectId)} — ${agentTypes.length} agent lists`,
        f.fence.notice,
        f.fence.wrap(fields([['Relations', links.map((l) => l.rel)]])),
        calls.length ? `Next: ${calls.join('; ')}.` : 'The project offers no agent lists.',
      ].join('\n'),
      structured: { agentTypes, links },
    };
  },
});

export const agentTools = [listAgents, getAgentLinks];
