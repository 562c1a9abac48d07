// "Where is db-prod-06?" as a person reads it: each host the name matches — its project, replica set or
// shard, role, last ping and state — and, when none matched, what was searched and the names near it.

import type { Page } from '../../api/paging.js';
import type { Alert, Host } from '../../api/types.js';
import { alertWhat } from '../../model/index.js';
import { type HostFields, type HostState, hostState, type Writability } from '../../rules/index.js';
import { cell } from '../../untrusted.js';
import { type FormatContext, type ListView, listAnswer, type ToolAnswer } from '../answers.js';
import { plural, stamp, table, utc } from '../markdown.js';
import { hostList } from './deployment.js';

/** The shape of a host search (src/feeds/names.ts) as far as drawing it goes. */
interface WhereView {
  typed: string;
  projects: Array<{ id: string; name?: string }>;
  hostCount: number;
  near: string[];
  where: Array<{
    projectId: string;
    projectName?: string;
    host: Host;
    alerts: Alert[];
    alertsError?: string;
  }>;
}

/** A host's state in words (the rule: src/rules/hosts.ts), its disagreeing records both named. */
function stateWords(h: Host, alerts: Alert[], now: Date): string {
  return hostStateWords(hostState(h as HostFields, alerts, now), now);
}

/** A state the rule gave, in words: "pinging", "DOWN since …; role last known", or both records. */
function hostStateWords(st: HostState, now: Date): string {
  switch (st.state) {
    case 'down':
      return `DOWN since ${stamp(st.downSince, now) ?? '?'}; role last known`;
    case 'disputed':
      return `disputed: pinged ${stamp(st.lastPing, now)}, yet HOST_DOWN alert ${st.downAlertId} is open`;
    case 'pinging':
      return 'pinging';
    default:
      return 'not known (no last ping)';
  }
}

const columns = [
  'project',
  'host',
  'hostId',
  'role',
  'replica set / shard',
  utc('last ping'),
  'state',
  'open alerts',
];

function group(h: Host): string | undefined {
  const r = h as Record<string, unknown>;
  return (
    h.replicaSetName ??
    (r.shardName as string | undefined) ??
    (r.clusterId ? `cluster ${r.clusterId}` : undefined)
  );
}

export function whereAnswer(s: WhereView, f: FormatContext): ToolAnswer {
  const typed = cell(s.typed, 100);
  const searched = `${plural(s.hostCount, 'host')} of ${plural(s.projects.length, 'project')}`;
  if (!s.where.length) {
    const near = s.near.length ? ` Near names: ${s.near.join(', ')}.` : ' No name is near it.';
    return {
      text: `# Where is \`${typed}\` — no host\nSearched ${searched} by id and by name, with or without domain and port.${near}`,
      structured: {
        totalCount: 0,
        pageNum: 1,
        itemsPerPage: 0,
        results: [],
        searched: { projects: s.projects.length, hosts: s.hostCount },
        near: s.near,
      },
    };
  }
  const rows = s.where.map((w) => [
    w.projectName ?? w.projectId,
    `${w.host.hostname ?? '?'}${w.host.port === undefined ? '' : `:${w.host.port}`}`,
    w.host.id,
    w.host.typeName,
    group(w.host),
    stamp((w.host as Record<string, unknown>).lastPing, f.now),
    stateWords(w.host, w.alerts, f.now),
    w.alertsError ? 'not read' : w.alerts.map((a) => `${alertWhat(a)} (${a.id})`).join('; ') || 'none',
  ]);
  const lines = [
    `# Where is \`${typed}\` — ${plural(s.where.length, 'host')}, searched ${searched}`,
    f.fence.notice,
    f.fence.wrap(table(columns, rows)),
    'Next: list_project_events with target and history=true for its outages before; get_automation_status for its process.',
  ];
  return {
    text: lines.join('\n'),
    structured: {
      totalCount: s.where.length,
      pageNum: 1,
      itemsPerPage: s.where.length,
      results: s.where.map((w) => ({
        projectId: w.projectId,
        projectName: w.projectName,
        hostId: w.host.id,
        hostname: w.host.hostname,
        port: w.host.port,
        role: w.host.typeName,
        group: group(w.host),
        state: stateWords(w.host, w.alerts, f.now),
        openAlerts: w.alerts.map((a) => ({ alertId: a.id, what: alertWhat(a) })),
      })),
    },
  };
}

/** In the hosts' table the last ping is the column beside: a down host is down since then. */
const tableState = (st: HostState, now: Date) =>
  st.state === 'down' && st.downSince === st.lastPing
    ? 'DOWN since its last ping; role last known'
    : hostStateWords(st, now);

/** A project's hosts with each one's state (src/feeds/hosts.ts), as drawn: the table, then writes per set. */
interface HostsView {
  page: Page<Host>;
  states: Record<string, HostState>;
  sets: ReadonlyArray<{ name: string; members: ReadonlyArray<{ host: Host }>; writability: Writability }>;
  alertsNote?: string;
}

const shortHost = (h: string) => h.replace(/:\d+$/, '').split('.')[0] ?? h;

/** One line per replica set or shard: a primary that pings (takes writes), or none, and the records behind it. */
function writabilityLines(sets: HostsView['sets']): string[] {
  return sets.flatMap((s) => {
    const w = s.writability;
    const name = cell(s.name, 60);
    const roles = [...new Set(s.members.flatMap((m) => m.host.typeName ?? []))];
    if (w.contradiction)
      return `- ${name}: primary ${shortHost(w.primary!)} pings, yet NO_PRIMARY is open (alertId ${w.contradiction.noPrimaryAlertId}): both records kept`;
    if (w.writable) return `- ${name}: takes writes — primary ${shortHost(w.primary!)} pings`;
    // Config servers report SHARD_CONFIG, not which member is primary: nothing to judge writes by, no line.
    if (!roles.some((r) => /PRIMARY|SECONDARY/.test(r))) return [];
    const last = w.lastKnownPrimaries.map(shortHost);
    const was = last.length ? ` (last known primary ${last.join(', ')}, no longer pinging)` : '';
    return `- ${name}: NO primary that pings — cannot take writes${was}`;
  });
}

/** The hosts of a page, each with its state (one column), then every set's writability (all its members). */
export function hostsAnswer(
  r: HostsView,
  q: { pageNum: number; itemsPerPage: number },
  list: { title: string; next: string; empty: string },
  f: FormatContext,
): ToolAnswer {
  const view: ListView<Host> = {
    columns: [...hostList.columns, 'state'],
    row: (h: Host, now: Date, names) => [
      ...hostList.row(h, now, names),
      r.states[h.id] ? tableState(r.states[h.id]!, now) : '—',
    ],
  };
  const answer = listAnswer(r.page, q, { ...list, ...view }, f);
  const lines = writabilityLines(r.sets);
  if (lines.length) answer.text += `\nWrites, per replica set or shard:\n${f.fence.wrap(lines.join('\n'))}`;
  if (r.alertsNote) answer.text += `\n${r.alertsNote}`;
  // The list's own shape is kept (bounded like every list); the sets are small and go beside it.
  answer.structured.sets = r.sets.map((x) => ({ name: x.name, writable: x.writability.writable }));
  return answer;
}
