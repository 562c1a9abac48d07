// A project's hosts with their state and, per replica set or shard, whether it takes writes: the model's join
// (src/model/join.ts: hostState and writability over every host and the open alerts). The page shown is cut
// from all the hosts, since a set's writability needs all its members whatever page is shown.

import { ApiError } from '../api/errors.js';
import type { Page } from '../api/paging.js';
import type { Host } from '../api/types.js';
import { type HostFacts, joinProject, readProject, type SetFacts } from '../model/index.js';

interface ProjectHosts {
  page: Page<Host>;
  /** By hostId, for the hosts of the page. */
  states: Record<string, HostFacts['state']>;
  sets: SetFacts[];
  /** Why the open alerts could not be read (states then rest on last pings alone). */
  alertsNote?: string;
}

export async function loadProjectHosts(
  api: Parameters<typeof readProject>[0],
  projectId: string,
  q: { pageNum: number; itemsPerPage: number },
  o: { signal: AbortSignal; now: Date },
): Promise<ProjectHosts> {
  const r = await readProject(api, projectId, ['hosts', 'alerts'], { ...o, statuses: ['OPEN'] });
  const failed = (part: string) => r.failed.find((x) => x.part === part)?.error;
  const hostsError = failed('hosts');
  if (hostsError) throw hostsError;
  const facts = joinProject(r, o.now);
  const from = (q.pageNum - 1) * q.itemsPerPage;
  const shown = facts.hosts.slice(from, from + q.itemsPerPage);
  const alertsError = failed('alerts');
  const why = alertsError instanceof ApiError ? alertsError.message : String(alertsError);
  return {
    page: { results: shown.map((h) => h.host), totalCount: facts.hosts.length, links: [] },
    states: Object.fromEntries(shown.map((h) => [h.host.id, h.state])),
    sets: facts.sets,
    ...(alertsError ? { alertsNote: `Open alerts not read (${why}): states rest on last pings.` } : {}),
  };
}
