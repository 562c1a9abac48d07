// Agents: the monitoring, backup and automation agents of a project, and whether they are alive.
import { z } from 'zod';
import { reconcileAgents } from '../src/feeds/agents.js';
import { loadOpenAlerts } from '../src/feeds/alerts.js';
import { fields, plural, table } from '../src/format/markdown.js';
import { redact } from '../src/format/redact.js';
import { reconciledColumns, reconciledRow, stateWords, unmatchedLine } from '../src/format/views/agents.js';
import { ids, page } from '../src/tool/ids.js';
import { defineTool, listOutput, pageQuery } from '../src/tool/index.js';
import { cell } from '../src/untrusted.js';
import { AGENT_TYPES } from '../src/vocabulary/index.js';

export const listAgents = defineTool({
  name: 'list_agents',
  title: 'List agents of one type',
  description: 'Agents of one type, with agent-down alerts and silence. Use for "is the agent running?".',
  kind: 'read',
  input: {
    projectId: ids.project.optional(),
    agentType: z.enum(AGENT_TYPES).describe('Which agents to list'),
    ...page,
  },
  output: {
    ...listOutput,
  },
  run: async (ctx, args) => {
    const [agents, alerts] = await Promise.all([
      ctx.api.agents.list(args.projectId, args.agentType, pageQuery(args), ctx.req),
      // The alerts only explain the agents: failing to read them must not cost the list.
      loadOpenAlerts(ctx.api, args.projectId, { signal: ctx.signal }).catch((e: unknown) => {
        if (ctx.signal.aborted) throw e;
        return e instanceof Error ? e.message : String(e);
      }),
    ]);
    return { agents, alerts };
  },
  format: ({ agents, alerts }, args, f) => {
    const read = typeof alerts === 'string' ? undefined : alerts;
    const report = reconcileAgents({
      agents: { [args.agentType]: agents.results },
      alerts: read?.alerts ?? [],
      globalAlertIds: read?.globalAlertIds,
      configs: read?.configs,
      globalConfigs: read?.globalConfigs,
      now: f.now,
    });
    const q = pageQuery(args);
    const type = args.agentType;
    const down = report.checks.filter((c) => c.alerts.length > 0);
    const silent = report.checks.filter((c) => c.silent);
    const threshold = report.thresholds[type]!;
    const verdict = [
      down.length || report.unmatched.length
        ? `${plural(report.downAlerts.length, `open ${type}_AGENT_DOWN alert`)}`
        : `no ${type}_AGENT_DOWN alert open`,
      silent.length ? `${plural(silent.length, 'agent')} silent past ${threshold.minutes} min` : '',
    ]
      .filter(Boolean)
      .join(', ');
    const first = (q.pageNum - 1) * q.itemsPerPage + 1;
    const shown = agents.results.length;
    const lines = [
      `# ${type} agents of project ${f.names.project(args.projectId)} — ${agents.totalCount} total${shown ? `, showing ${first}–${first + shown - 1}` : ''}; ${verdict}`,
    ];
    const body: string[] = [];
    if (shown)
      body.push(
        table(
          reconciledColumns,
          report.checks.map((c) => reconciledRow(c, f.now)),
        ),
      );
    for (const c of report.checks) for (const d of c.alerts) body.push(`- ${unmatchedLine(d, f.now, true)}`);
    for (const d of report.unmatched) body.push(`- ${unmatchedLine(d, f.now)}`);
    if (body.length) lines.push(f.fence.notice, f.fence.wrap(body.join('\n')));
    if (!shown)
      lines.push(`No ${type} agents in this project${agents.totalCount ? ` on page ${q.pageNum}` : ''}.`);
    const seen =
      type === 'MONITORING' ? 'last ping' : 'last configuration call (the platform gives no ping for these)';
    lines.push(
      `Silent means no ${seen} for longer than ${threshold.minutes} min (${threshold.from === 'configuration' ? `the ${type}_AGENT_DOWN alert configuration` : 'the default; no alert configuration sets it'}).`,
    );
    if (typeof alerts === 'string')
      lines.push(`Open alerts could not be read (${cell(alerts, 160)}): agent-down alerts are not shown.`);
    else if (alerts.globalNote) lines.push(alerts.globalNote);
    const left = agents.totalCount - (first - 1 + shown);
    if (left > 0 && shown > 0) lines.push(`${left} more — call again with pageNum=${q.pageNum + 1}.`);
    lines.push(
      report.downAlerts.length
        ? `Next: ${report.downAlerts.some((d) => !d.global) ? 'acknowledge_alert' : ''}${report.downAlerts.some((d) => !d.global) && report.downAlerts.some((d) => d.global) ? ' or ' : ''}${report.downAlerts.some((d) => d.global) ? 'acknowledge_global_alert (global alerts)' : ''} with an alertId once someone is on it; triage_project for the project's whole story.`
        : 'Next: list_hosts for the hosts they watch; get_automation_status for automation progress.',
    );
    return {
      text: lines.join('\n'),
      structured: {
        totalCount: agents.totalCount,
        pageNum: q.pageNum,
        itemsPerPage: q.itemsPerPage,
        results: redact(
          report.checks.map((c) => ({
            ...c.agent,
            silent: c.silent,
            openAlertIds: c.alerts.map((d) => d.alert.id),
            meaning: stateWords(c.agent.stateName),
          })),
        ),
      },
    };
  },
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
