// Hosts and agents across every project (`projectId: "all"`).
import type { Host, PageQuery } from '../../api/types.js';
import type { FormatContext, ToolAnswer } from '../answers.js';
import { type AgentCheckView, hostList, reconciledColumns, reconciledRow } from './deployment.js';
import { type Across, acrossAnswer } from './projects-all.js';

export function hostsAcross(a: Across<Host>, q: Required<PageQuery>, f: FormatContext): ToolAnswer {
  return acrossAnswer(
    a,
    q,
    {
      title: 'Hosts',
      ...hostList,
      order: 'by project and host name',
      narrow: 'one projectId',
      next: 'get_disk_partition with its projectId and hostId',
      empty: 'No hosts are monitored.',
    },
    f,
  );
}

export function agentsAcross(
  a: Across<AgentCheckView>,
  q: Required<PageQuery>,
  o: { type: string; silent?: boolean },
  f: FormatContext,
): ToolAnswer {
  return acrossAnswer(
    a,
    q,
    {
      title: `${o.type} agents`,
      columns: reconciledColumns,
      row: (c, now) => reconciledRow(c, now),
      order: 'silent or alerting first',
      filters: o.silent === undefined ? undefined : o.silent ? 'silent or alerting' : 'reporting',
      narrow: 'silent=true, or one projectId',
      next: 'list_agents with its projectId for the agent-down alerts in full',
      empty: 'No agents of this type match.',
    },
    f,
  );
}
