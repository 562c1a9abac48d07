// The open (and TRACKING) alerts of a project across all its alert configurations, with the configurations, the
// global ones that concern the project, and (when asked) its maintenance windows. One beyond-spec call per
// status where the server offers GET /groups/{id}/alerts?status=; otherwise the spec's way: the project's alert
// configurations, then each one's open alerts, four at a time.

import { mapBounded } from '../api/bounded.js';
import { ifSupported, withFallback } from '../api/capabilities.js';
import type { Alert, AlertConfig, ApiClient, GlobalAlertConfig, MaintenanceWindow } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { type FetchPage, fetchAll } from '../api/paging.js';
import { cell } from '../untrusted.js';
import { type FateRecords, loadFateRecords } from './fates.js';

/** A project's open alerts as read, with what explains them. */
export interface OpenAlerts {
  alerts: Alert[];
  configs: AlertConfig[];
  /** 'project': the project-wide alert list; 'per-config': the spec-only fan-out over configurations. */
  source: 'project' | 'per-config';
  /** Some list held more than could be read. */
  truncated: boolean;
  /** Which of `alerts` come from global alert configurations (on this project's hosts). */
  globalAlertIds: string[];
  globalConfigs: GlobalAlertConfig[];
  /** Why the global alerts could not be read, when they could not. */
  globalNote?: string;
  /** Read when asked for; null when the server cannot list them. */
  windows?: MaintenanceWindow[] | null;
  /** Read when asked for: the records that say what happens to each alert (src/model/fates.ts). */
  fates?: FateRecords;
}

export const OPEN_STATUSES = ['OPEN', 'TRACKING'] as const;
export type OpenStatus = (typeof OPEN_STATUSES)[number];

const FAN_OUT = 4;
/** Upper bound of items read from one list (a runaway server must not exhaust memory). */
const MAX_ITEMS = 5_000;

interface OpenAlertsOptions {
  signal?: AbortSignal;
  statuses?: readonly OpenStatus[];
  concurrency?: number;
  /** Also read the project's maintenance windows (which of them mute which alerts). */
  windows?: boolean;
  /** Also read what says what happens to the alerts: integrations, acknowledgement and key events. */
  fates?: boolean;
  /** Called as fetches complete; total grows when the per-configuration fan-out is needed. */
  progress?: (done: number, total: number, message: string) => unknown;
  /** The installation's global alerts read once for many projects (globalAlertsOnce). */
  global?: SharedGlobalAlerts;
}

interface GlobalAlerts {
  alerts: Alert[];
  configs: GlobalAlertConfig[];
  note?: string;
  truncated?: boolean;
}

/** The global alerts of one project, from a read shared by many (see globalAlertsOnce). */
export type SharedGlobalAlerts = (projectId: string, signal?: AbortSignal) => Promise<GlobalAlerts>;

/**
 * The installation's global alert configurations and their open alerts read once, for a read across many
 * projects: each project takes the alerts on its hosts, where each reading them for itself would read (or
 * take from the cache and walk) the same lists once per project.
 */
export function globalAlertsOnce(api: ApiClient): SharedGlobalAlerts {
  let read: Promise<{ all: GlobalAlerts; byProject: Map<string, Alert[]> }> | undefined;
  return async (projectId, signal) => {
    read ??= (async () => {
      let truncated = false;
      const all = async <T>(_: string, page: FetchPage<T>) => {
        const r = await fetchAll(page, { signal, maxItems: MAX_ITEMS });
        truncated ||= r.truncated;
        return r.items;
      };
      const g = await loadGlobalAlerts(api, all, signal, () => {});
      const byProject = new Map<string, Alert[]>();
      for (const a of g.alerts) {
        const own = byProject.get(String(a.groupId));
        if (own) own.push(a);
        else byProject.set(String(a.groupId), [a]);
      }
      return { all: { ...g, truncated }, byProject };
    })();
    const { all, byProject } = await read;
    return { ...all, alerts: byProject.get(projectId) ?? [] };
  };
}

/** A project's maintenance windows (beyond the spec): null when the server offers no list. */
export async function loadWindows(
  api: ApiClient,
  projectId: string,
  signal?: AbortSignal,
): Promise<MaintenanceWindow[] | null> {
  const r = await ifSupported(api, 'maintenanceWindows', () =>
    fetchAll((q) => api.maintenanceWindows.list(projectId, q, { signal }), { signal, maxItems: MAX_ITEMS }),
  );
  return r ? r.items : null;
}

export async function loadOpenAlerts(
  api: ApiClient,
  projectId: string,
  o: OpenAlertsOptions = {},
): Promise<OpenAlerts> {
  const statuses = o.statuses ?? OPEN_STATUSES;
  const signal = o.signal;
  let done = 0;
  // Expected reads: the configurations and one list per status (or per configuration, in the fallback),
  // plus the global configurations and one list per enabled global configuration.
  let total = statuses.length + 1;
  let globalTotal = 1;
  const tick = async (message: string) => {
    done += 1;
    await o.progress?.(done, Math.max(total + globalTotal, done), message);
  };
  let truncated = false;
  const all = async <T>(label: string, read: FetchPage<T>) => {
    const r = await fetchAll(read, { signal, maxItems: MAX_ITEMS });
    truncated ||= r.truncated;
    await tick(label);
    return r.items;
  };

  const configsP = all('alert configurations', (q) => api.alertConfigs.list(projectId, q, { signal }));
  // Settled below in both paths; a rejection here must not go unobserved while the alerts load.
  configsP.catch(() => {});

  const globalP = o.global
    ? o.global(projectId, signal).then((g) => {
        globalTotal = 0;
        truncated ||= g.truncated === true;
        return g;
      })
    : loadGlobalAlerts(api, all, signal, (n) => {
        globalTotal = n;
      }).then((g) => ({ ...g, alerts: g.alerts.filter((a) => a.groupId === projectId) }));
  globalP.catch(() => {});
  // Windows only annotate the alerts: an error reading them must not cost the alerts themselves.
  const windowsP = o.windows ? loadWindows(api, projectId, signal).catch(() => null) : undefined;
  const fatesP = o.fates ? loadFateRecords(api, projectId, signal) : undefined;

  const { value: alerts, fallback } = await withFallback(
    api,
    'projectAlerts',
    async () => {
      const lists = await Promise.all(
        statuses.map((status) =>
          all(`${status} alerts`, (q) => api.alerts.list(projectId, { ...q, status }, { signal })),
        ),
      );
      return lists.flat();
    },
    async () => {
      const configs = await configsP;
      total = 1 + configs.length;
      const lists = await mapBounded(configs, o.concurrency ?? FAN_OUT, signal, (c, s) =>
        all(`alerts of configuration ${c.id}`, (q) =>
          api.alertConfigs.listOpenAlerts(projectId, c.id, q, { signal: s }),
        ),
      );
      return lists.flat();
    },
  );
  const configs = await configsP;
  const global = await globalP;
  const wanted = new Set<string>(statuses);
  const seen = new Set<string>();
  const open = [...alerts, ...global.alerts].filter((a) => {
    if (!wanted.has(String(a.status)) || seen.has(a.id)) return false;
    seen.add(a.id);
    return true;
  });
  return {
    alerts: open,
    configs,
    source: fallback ? 'per-config' : 'project',
    truncated,
    globalAlertIds: global.alerts.map((a) => a.id),
    globalConfigs: global.configs,
    globalNote: global.note,
    ...(windowsP ? { windows: await windowsP } : {}),
    ...(fatesP ? { fates: await fatesP } : {}),
  };
}

/**
 * Open alerts of the installation's global alert configurations, of every project (a disk full on one of a
 * project's hosts is as urgent as any project alert). Reading them needs a global role: without one, a note.
 */
async function loadGlobalAlerts(
  api: ApiClient,
  all: <T>(label: string, read: FetchPage<T>) => Promise<T[]>,
  signal: AbortSignal | undefined,
  /** How many reads (that tick progress) the global part makes in all, once that is known. */
  expect: (reads: number) => void,
): Promise<GlobalAlerts> {
  try {
    const read = await ifSupported(api, 'globalAlertConfigs', () =>
      all('global alert configurations', (q) => api.globalAlerts.listConfigs(q, { signal })),
    );
    // An older or restricted server has no such list (404): say so, never skip it in silence.
    if (read === undefined) {
      expect(0);
      return {
        alerts: [],
        configs: [],
        note: "Global alert configurations were not checked: this server has no global alert configuration endpoint (an older or restricted server), so global alerts on this project's hosts are not shown.",
      };
    }
    const configs = read;
    const enabled = configs.filter((c) => c.enabled !== false);
    expect(1 + enabled.length);
    const lists = await mapBounded(enabled, FAN_OUT, signal, (c, s) =>
      all(`global alerts (${c.id})`, (q) => api.globalAlerts.listForConfig(c.id, q, { signal: s })),
    );
    return { alerts: lists.flat(), configs };
  } catch (e) {
    // Global alerts add to the project's own: failing to read them must not cost those.
    if (signal?.aborted) throw e;
    expect(0);
    const why =
      e instanceof ApiError && (e.status === 401 || e.status === 403)
        ? 'this key has no global role'
        : e instanceof ApiError && e.errorCode === 'RATE_BUDGET_SPENT'
          ? 'the request budget is spent'
          : `the platform answered: ${e instanceof ApiError ? e.message : String(e)}`;
    return {
      alerts: [],
      configs: [],
      note: `Global alerts (e.g. a disk full on this project's hosts) were not checked: ${cell(why, 200)}.`,
    };
  }
}
