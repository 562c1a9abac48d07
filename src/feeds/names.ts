// Host names as people type them — "db-prod-06", "db-prod-06.example.internal", "db-prod-06:27017" or a host
// id — matched once, here, wherever a host is accepted (hostId arguments, list_hosts' host) or compared
// (events' target, agents with their alerts). The guard resolves a hostId argument before consent, so the
// platform, the preview and the audit see the id. `resolveHost` is a plain function for callers outside tools.
import type { ApiClient } from '../api/client.js';
import { fetchAll } from '../api/paging.js';
import type { Alert, Host } from '../api/types.js';
import { ToolInputError } from '../tool/errors.js';
import { cell } from '../untrusted.js';
import { loadOpenAlerts } from './alerts.js';
import { projectChoices } from './lookup.js';

/** Host ids as the platform makes them (32 hex characters); anything else given as a hostId is a name. */
export const HOST_ID = /^[0-9a-f]{32}$/i;

/** A host as typed: its name in lower case, and the port when one was given ("db-prod-06:27017"). */
export interface HostName {
  name: string;
  port?: number;
}

/** "db-prod-06.example.internal:27017" → { name: "db-prod-06.example.internal", port: 27017 }. */
export function hostName(typed: string): HostName {
  const t = typed.trim().toLowerCase();
  const m = /^(.*):(\d{1,5})$/.exec(t);
  return m ? { name: m[1] as string, port: Number(m[2]) } : { name: t };
}

/** The short name: the first label ("db-prod-06"). */
export const shortName = (hostname: string) => hostname.toLowerCase().split('.')[0] as string;

/** One name is the other, or the other with more of its domain: "db-prod-06" ~ "db-prod-06.example.internal". */
const sameName = (a: string, b: string) => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

/** A record that names a host: a host, an event, an alert's "hostname:port", an agent. */
export interface HostRef {
  id?: string;
  hostname?: string;
  port?: number | string;
}

/** Whether what a person typed names this host: its id, or its name with or without domain, port if given. */
export function hostMatches(typed: string | HostName, h: HostRef): boolean {
  const q = typeof typed === 'string' ? hostName(typed) : typed;
  if (h.id && h.id.toLowerCase() === q.name) return true;
  if (!h.hostname || !q.name) return false;
  const r = hostName(h.hostname);
  const port = h.port !== undefined && h.port !== '' ? Number(h.port) : r.port;
  if (q.port !== undefined && port !== undefined && q.port !== port) return false;
  return sameName(r.name, q.name);
}

/** A host found, with its project. */
export interface HostHit {
  projectId: string;
  projectName?: string;
  host: Host;
}

/** What a search looked at: which projects, how many hosts, and what matched. */
export interface HostSearch {
  typed: string;
  hits: HostHit[];
  projects: Array<{ id: string; name?: string }>;
  hostCount: number;
  /** Names close to what was typed, when nothing matched (a typo, a digit off). */
  near: string[];
}

const MAX_HOSTS = 2_000;

/** Edit distance, bounded: names differ by a few characters at most to be "near". */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] as number;
      row[j] = Math.min(cur + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length] as number;
}

/** Up to five short names within three edits of the typed one, or containing it, closest first. */
export function nearNames(typed: string, hostnames: string[]): string[] {
  const q = shortName(hostName(typed).name);
  const scored = [...new Set(hostnames.map(shortName))]
    .map((n) => ({ n, d: n.includes(q) || q.includes(n) ? 0.5 : distance(q, n) }))
    .filter((x) => x.d <= 3)
    .sort((a, b) => a.d - b.d || a.n.localeCompare(b.n));
  return scored.slice(0, 5).map((x) => x.n);
}

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
export function notOneHost(s: HostSearch): string {
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
export interface HostWhere extends HostHit {
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
