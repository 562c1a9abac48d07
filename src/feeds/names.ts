// The one resolver for host names: finds the host a person typed (src/rules/names.ts says what matches) in a
// project or in every project the key sees, refuses an ambiguous name with its candidates and an unknown one
// with what was searched and near names. The guard resolves a hostId argument before consent, so the
// platform, the preview and the audit see the id; `resolveHost` is a plain function for callers outside tools.
import type { ApiClient } from '../api/client.js';
import { fetchAll } from '../api/paging.js';
import type { Alert, Host } from '../api/types.js';
import { loadOpenAlerts } from '../model/index.js';
import { HOST_ID, hostMatches, hostName, nearNames } from '../rules/names.js';
import { ToolInputError } from '../tool/errors.js';
import { cell } from '../untrusted.js';
import { projectChoices } from './lookup.js';

/** A host found, with its project. */
interface HostHit {
  projectId: string;
  projectName?: string;
  host: Host;
}

/** What a search looked at: which projects, how many hosts, and what matched. */
interface HostSearch {
  typed: string;
  hits: HostHit[];
  projects: Array<{ id: string; name?: string }>;
  hostCount: number;
  /** Names close to what was typed, when nothing matched (a typo, a digit off). */
  near: string[];
}

const MAX_HOSTS = 2_000;

/**
 * Finds a host by what a person typed, in one project or (without projectId) in every project the key sees.
 * The platform has no search by name: each project's host list is read (shared reads keep repeats cheap).
 */
export async function findHosts(
  api: ApiClient,
  typed: string,
  o: { projectId?: string; signal?: AbortSignal },
): Promise<HostSearch> {
  const projects = o.projectId
    ? [{ id: o.projectId }]
    : await projectChoices(api, undefined).then((l) => (l.length ? l : []));
  const lists = await Promise.all(
    projects.map(async (p) => ({
      p,
      hosts: (
        await fetchAll((q, s) => api.hosts.list(p.id, q, { signal: s }), {
          maxItems: MAX_HOSTS,
          signal: o.signal,
        })
      ).items,
    })),
  );
  const q = hostName(typed);
  const hits = lists.flatMap(({ p, hosts }) =>
    hosts
      .filter((h) => hostMatches(q, h))
      .map((host) => ({ projectId: p.id, ...(p.name ? { projectName: p.name } : {}), host })),
  );
  const all = lists.flatMap((l) => l.hosts.map((h) => h.hostname ?? ''));
  return {
    typed,
    hits,
    projects,
    hostCount: all.length,
    near: hits.length ? [] : nearNames(typed, all.filter(Boolean)),
  };
}

const where = (s: HostSearch) =>
  s.projects.length === 1
    ? `the ${s.hostCount} hosts of project ${cell(s.projects[0]?.name ?? s.projects[0]?.id, 60)}`
    : `the ${s.hostCount} hosts of ${s.projects.length} projects`;

const hitLine = (h: HostHit) =>
  `${cell(h.host.hostname, 100)}:${h.host.port ?? '?'} (hostId ${h.host.id}, project ${cell(h.projectName ?? h.projectId, 60)})`;

/** Why a search did not give exactly one host, in words that say what to type instead. */
function notOneHost(s: HostSearch): string {
  const typed = cell(s.typed, 100);
  if (s.hits.length > 1)
    return `"${typed}" names ${s.hits.length} hosts: ${s.hits.map(hitLine).join('; ')}. Give the hostId, or the name with its port.`;
  const near = s.near.length ? ` Near names: ${s.near.join(', ')}.` : '';
  return `No host named "${typed}" among ${where(s)} (by id, name with or without domain, and port).${near} list_hosts with host= searches every project.`;
}

/**
 * The one host a name means: by id, or by name in the project given (in every project when none is).
 * Refuses an ambiguous name with the candidates, and an unknown one with what was searched and near names.
 */
export async function resolveHost(
  api: ApiClient,
  typed: string,
  o: { projectId?: string; signal?: AbortSignal },
): Promise<HostHit> {
  if (HOST_ID.test(typed) && o.projectId)
    return { projectId: o.projectId, host: { id: typed.toLowerCase() } as Host };
  const s = await findHosts(api, typed, o);
  if (s.hits.length === 1) return s.hits[0] as HostHit;
  throw new ToolInputError(notOneHost(s));
}

/** A host found, with what is open on it now (its project's open alerts, the global configurations' too). */
interface HostWhere extends HostHit {
  alerts: Alert[];
  /** Why the alerts could not be read, when they could not. */
  alertsError?: string;
}

/** "Where is db-prod-06?": every host the name matches, in every project the key sees, with its open alerts. */
export async function whereIs(
  api: ApiClient,
  typed: string,
  signal?: AbortSignal,
): Promise<HostSearch & { where: HostWhere[] }> {
  const s = await findHosts(api, typed, { signal });
  const projects = [...new Set(s.hits.map((h) => h.projectId))];
  const open = new Map(
    await Promise.all(
      projects.map(async (id) => {
        const r: { alerts: Alert[]; error?: string } = await loadOpenAlerts(api, id, { signal }).then(
          (x) => ({ alerts: x.alerts }),
          (e: unknown) => ({ alerts: [] as Alert[], error: e instanceof Error ? e.message : String(e) }),
        );
        return [id, r] as const;
      }),
    ),
  );
  const where = s.hits.map((hit) => {
    const r = open.get(hit.projectId);
    const on = (a: Alert) =>
      a.hostId === hit.host.id ||
      (!a.hostId &&
        hostMatches(a.hostnameAndPort ?? '', { hostname: hit.host.hostname, port: hit.host.port }));
    return { ...hit, alerts: (r?.alerts ?? []).filter(on), ...(r?.error ? { alertsError: r.error } : {}) };
  });
  return { ...s, where };
}
