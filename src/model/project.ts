// One project's records, read through the client (paged, cached, coalesced, within the budget) part by part:
// a tool asks for the parts it draws and pays for no other. Each part is read once per reader (a second ask
// shares the first read); a part that fails is named with its error, never fatal to the others.
import { ifSupported } from '../api/capabilities.js';
import type {
  Agent,
  Alert,
  ApiClient,
  ApiEvent,
  AutomationStatus,
  Host,
  Integration,
  MaintenanceWindow,
  User,
} from '../api/client.js';
import { fetchAll } from '../api/paging.js';
import { atGoal } from '../rules/index.js';
import type { AgentType } from '../vocabulary/index.js';
import { loadAgents } from './agents.js';
import {
  loadOpenAlerts,
  loadWindows,
  type OpenAlerts,
  type OpenStatus,
  type SharedGlobalAlerts,
} from './alerts.js';
import { loadPublishes, loadRecentEvents, type RecentEvents } from './events.js';

/** The parts of a project's records. */
export const PARTS = [
  'alerts',
  'windows',
  'automation',
  'publishes',
  'agents',
  'hosts',
  'integrations',
  'events',
  'closed',
  'people',
] as const;
export type Part = (typeof PARTS)[number];

export interface ProjectRecords {
  projectId: string;
  /** Open and tracking alerts with their configurations and the global ones on this project's hosts. */
  alerts?: OpenAlerts;
  /** null: the server lists no windows. */
  windows?: MaintenanceWindow[] | null;
  automation?: AutomationStatus;
  /** The automation configuration's publishes, newest first: read only when a process is behind its goal. */
  publishes?: ApiEvent[];
  agents?: Partial<Record<AgentType, Agent[]>>;
  hosts?: Host[];
  integrations?: Integration[];
  /** Events since `since` (asked for with it). */
  events?: RecentEvents;
  /** Alerts closed since `since`; undefined when the server lists no closed alerts. */
  closed?: Alert[];
  people?: User[];
  /** Parts that could not be read, in the order they failed. */
  failed: Array<{ part: Part; error: unknown }>;
}

interface ReadOptions {
  signal: AbortSignal;
  now: Date;
  /** Start of the window events and closed alerts are read for. */
  since?: Date;
  statuses?: readonly OpenStatus[];
  /** The alerts part reads what happens to them too (src/model/fates.ts). */
  fates?: boolean;
  /** The global alerts read once for every project read (a read across the installation). */
  global?: SharedGlobalAlerts;
  /** How many publishes are read at most. */
  maxPublishes?: number;
  /** Called as each part is read (or fails). */
  progress?: (part: Part) => unknown;
}

const MAX_LIST = 2_000;

function loaders(api: ApiClient, id: string, o: ReadOptions): Record<Part, () => Promise<unknown>> {
  const { signal } = o;
  const list = <T>(read: (q: object) => Promise<import('../api/paging.js').Page<T>>) =>
    fetchAll((q) => read(q), { signal, maxItems: MAX_LIST }).then((r) => r.items);
  return {
    alerts: () => loadOpenAlerts(api, id, { signal, statuses: o.statuses, fates: o.fates, global: o.global }),
    windows: () => loadWindows(api, id, signal),
    automation: () => api.automation.status(id, { signal }),
    publishes: () =>
      loadPublishes(api, id, { now: o.now.getTime(), signal, maxItems: o.maxPublishes ?? 200 }),
    agents: () => loadAgents(api, id, undefined, signal),
    hosts: () => list((q) => api.hosts.list(id, q, { signal })),
    integrations: () => api.integrations.list(id, { signal }).then((p) => p.results),
    events: () => loadRecentEvents(api, { projectId: id }, o.since ?? o.now, signal),
    closed: async () => {
      const since = o.since?.getTime() ?? 0;
      const r = await ifSupported(api, 'projectAlerts', () =>
        fetchAll((q) => api.alerts.list(id, { ...q, status: 'CLOSED' }, { signal }), {
          signal,
          maxItems: MAX_LIST,
        }),
      );
      return r?.items.filter((a) => Date.parse(a.resolved ?? '') >= since);
    },
    people: () => list((q) => api.users.ofProject(id, q, { signal })),
  };
}

/** Reads a project's parts on demand, each once. */
interface ProjectReader {
  projectId: string;
  part<P extends Part>(p: P): Promise<NonNullable<ProjectRecords[P]> | undefined>;
  /** The parts asked for, at once; `publishes` only once the automation shows a process behind its goal. */
  read(parts: readonly Part[]): Promise<ProjectRecords>;
}

export function projectReader(api: ApiClient, projectId: string, o: ReadOptions): ProjectReader {
  const load = loaders(api, projectId, o);
  const memo = new Map<Part, Promise<unknown>>();
  const part = <P extends Part>(p: P) => {
    if (!memo.has(p)) memo.set(p, load[p]());
    return memo.get(p) as Promise<NonNullable<ProjectRecords[P]> | undefined>;
  };
  const read = async (parts: readonly Part[]): Promise<ProjectRecords> => {
    const r: ProjectRecords = { projectId, failed: [] };
    const settle = async (p: Part) => {
      try {
        const value = await part(p);
        if (value !== undefined || p === 'closed') (r as unknown as Record<string, unknown>)[p] = value;
      } catch (error) {
        if (o.signal.aborted) throw error;
        r.failed.push({ part: p, error });
      }
      await o.progress?.(p);
    };
    await Promise.all(parts.filter((p) => p !== 'publishes').map(settle));
    const behind = (r.automation?.processes ?? []).some((p) => !atGoal(p, r.automation!.goalVersion));
    if (parts.includes('publishes') && (behind || !parts.includes('automation'))) await settle('publishes');
    return r;
  };
  return { projectId, part, read };
}

/** One project's records: the parts asked for, read at once. Callable for as many projects as needed. */
export const readProject = (api: ApiClient, projectId: string, parts: readonly Part[], o: ReadOptions) =>
  projectReader(api, projectId, o).read(parts);
