// What each list tool reads across the installation (`projectId: "all"`): per project the same reads its
// one-project answer makes, then the rows of every project in one list, filtered by state and in the order the
// question needs. The drawing is the views' (projects-all.ts and each area's row).
import type { Agent, ApiEvent, Host, MaintenanceWindow } from '../api/client.js';
import { fetchAll } from '../api/paging.js';
import type { AlertAcross, ConfigAcross } from '../format/views/alerts-all.js';
import type { Across, ProjectRef } from '../format/views/projects-all.js';
import {
  type AgentCheck,
  alertContext,
  createdMs,
  globalAlertsOnce,
  groupByCause,
  inTrouble,
  loadOpenAlerts,
  type OpenStatus,
  reconcileAgents,
} from '../model/index.js';
import { ackInForce, causeTier, dataAvailability, tierRank, windowState } from '../rules/index.js';
import type { ToolContext } from '../tool/index.js';
import type { AgentType } from '../vocabulary/index.js';
import { type Everywhere, everywhere } from './everywhere.js';

const ALL_ITEMS = { maxItems: 5_000 };

/** The rows of every project read, and what was not read. */
function across<T, R>(e: Everywhere<T>, rows: (value: T, project: ProjectRef) => R[]): Across<R> {
  return {
    rows: e.parts.flatMap((p) => {
      const project = { id: p.project.id, name: p.project.name };
      return rows(p.value, project).map((item) => ({ project, item }));
    }),
    projects: e.projects,
    read: e.parts.length,
    missing: e.missing,
    ...(e.partial ? { partial: e.partial } : {}),
  };
}

const time = (s: string | undefined) => Date.parse(s ?? '') || 0;

/**
 * Each row's time parsed once, for a sort: parsing in the comparison parsed twice per comparison (a sort of
 * 50,000 events at 500 projects was mostly Date.parse).
 */
function timesOf<R>(rows: R[], ms: (row: R) => number): Map<R, number> {
  return new Map(rows.map((r) => [r, ms(r)]));
}

// ---------------------------------------------------------------------------------------------------------
// Open alerts

/** Its tier's rank (rules/ranking.ts): unmuted data availability first. */
interface AlertRowItem extends AlertAcross {
  urgency: number;
}

interface AlertFilters {
  statuses: readonly OpenStatus[];
  acknowledged?: boolean;
  paging?: boolean;
  sort?: 'urgency' | 'age';
}

export async function openAlertsEverywhere(
  ctx: ToolContext,
  scope: string,
  o: AlertFilters,
): Promise<Across<AlertRowItem>> {
  const global = globalAlertsOnce(ctx.api);
  const e = await everywhere(
    ctx,
    'open alerts',
    (p, signal) => loadOpenAlerts(ctx.api, p.id, { signal, windows: true, statuses: o.statuses, global }),
    scope,
  );
  const now = ctx.now();
  const a = across(e, (r) =>
    groupByCause(r.alerts, r.configs, now, alertContext(r)).flatMap((g) =>
      g.alerts.map((alert): AlertRowItem => {
        const muted = g.window?.state === 'active';
        const acknowledged = ackInForce(alert, now);
        const pages = g.pages ?? [];
        const pagingNow = pages.length > 0 && !muted && !acknowledged && alert.status === 'OPEN';
        // Ranked as triage_installation ranks causes: the tiers of the rules.
        const urgency = tierRank(
          causeTier({
            tracking: alert.status === 'TRACKING',
            loud: muted || acknowledged ? 0 : 1,
            dataAvailability: dataAvailability(alert.eventTypeName),
            paging: pages.length > 0,
          }),
        );
        return {
          alert,
          cause: g.cause,
          pages,
          ...(muted ? { mutedBy: g.window?.description ?? g.window?.id } : {}),
          acknowledged,
          pagingNow,
          urgency,
        };
      }),
    ),
  );
  a.rows = a.rows.filter(
    ({ item }) =>
      (o.acknowledged === undefined || item.acknowledged === o.acknowledged) &&
      (o.paging === undefined || item.pagingNow === o.paging),
  );
  // Oldest first as oldestFirst orders them (an alert without a time last).
  const created = timesOf(a.rows, (r) => createdMs(r.item.alert));
  const byAge = (x: (typeof a.rows)[number], y: (typeof a.rows)[number]) => created.get(x)! - created.get(y)!;
  a.rows.sort((x, y) => (o.sort === 'age' ? byAge(x, y) : x.item.urgency - y.item.urgency || byAge(x, y)));
  return a;
}

// ---------------------------------------------------------------------------------------------------------
// Alert configurations

type ConfigRowItem = ConfigAcross;

/** The latest disabling of each configuration, by configuration id. */
async function disablings(ctx: ToolContext, projectId: string, signal: AbortSignal) {
  const page = await ctx.api.events.listForProject(
    projectId,
    { eventType: ['ALERT_CONFIG_DISABLED_AUDIT'], itemsPerPage: 500 },
    { signal },
  );
  const out = new Map<string, ApiEvent>();
  for (const ev of page.results)
    if (ev.alertConfigId && time(ev.created) >= time(out.get(ev.alertConfigId)?.created))
      out.set(ev.alertConfigId, ev);
  return out;
}

export async function alertConfigsEverywhere(
  ctx: ToolContext,
  scope: string,
  o: { enabled?: boolean },
): Promise<Across<ConfigRowItem>> {
  const e = await everywhere(
    ctx,
    'alert configurations',
    async (p, signal) => {
      const { items } = await fetchAll((q, s) => ctx.api.alertConfigs.list(p.id, q, { signal: s }), {
        signal,
        ...ALL_ITEMS,
      });
      const configs = items.filter((c) => o.enabled === undefined || Boolean(c.enabled) === o.enabled);
      // Who disabled what, when the disabled ones are asked for: one more request where one is disabled.
      const off =
        o.enabled === false && configs.some((c) => !c.enabled)
          ? await disablings(ctx, p.id, signal).catch(() => undefined)
          : undefined;
      return configs.map((c): ConfigRowItem => {
        const ev = c.enabled ? undefined : off?.get(c.id);
        return ev ? { ...c, disabledBy: ev.username ?? ev.publicKey, disabledAt: ev.created } : c;
      });
    },
    scope,
  );
  const a = across(e, (configs) => configs);
  // Disabled ones: the latest disabled first. Otherwise by project, then event type.
  if (o.enabled === false) {
    const at = timesOf(a.rows, (r) => time(r.item.disabledAt));
    a.rows.sort((x, y) => at.get(y)! - at.get(x)!);
  }
  return a;
}

// ---------------------------------------------------------------------------------------------------------
// Maintenance windows

export async function windowsEverywhere(
  ctx: ToolContext,
  scope: string,
  o: { state?: 'active' | 'upcoming'; startsWithinHours?: number },
): Promise<Across<MaintenanceWindow>> {
  const e = await everywhere(
    ctx,
    'maintenance windows',
    (p, signal) =>
      fetchAll((q, s) => ctx.api.maintenanceWindows.list(p.id, q, { signal: s }), { signal, ...ALL_ITEMS }),
    scope,
  );
  const now = ctx.now();
  const by = o.startsWithinHours === undefined ? undefined : now.getTime() + o.startsWithinHours * 3_600_000;
  const a = across(e, (r) =>
    r.items.filter((w) => {
      const state = windowState(w, now);
      if (state === 'ended' || (o.state !== undefined && state !== o.state)) return false;
      return by === undefined || (state === 'upcoming' && time(w.startDate) <= by);
    }),
  );
  const start = timesOf(a.rows, (r) => time(r.item.startDate));
  a.rows.sort((x, y) => start.get(x)! - start.get(y)!);
  return a;
}

// ---------------------------------------------------------------------------------------------------------
// Events

export async function eventsEverywhere(
  ctx: ToolContext,
  o: { eventType?: string[]; minDate?: string; maxDate?: string; rows: number },
): Promise<Across<ApiEvent> & { totalCount: number }> {
  // The newest `rows` of the installation are among the newest `rows` of each project: one page each.
  const itemsPerPage = Math.min(500, o.rows);
  const e = await everywhere(ctx, 'events', (p, signal) =>
    ctx.api.events.listForProject(
      p.id,
      { eventType: o.eventType, minDate: o.minDate, maxDate: o.maxDate, itemsPerPage, pageNum: 1 },
      { signal },
    ),
  );
  const a = across(e, (page) => page.results);
  const created = timesOf(a.rows, (r) => time(r.item.created));
  a.rows.sort((x, y) => created.get(y)! - created.get(x)! || y.item.id.localeCompare(x.item.id));
  const totalCount = e.parts.reduce((n, p) => n + (p.value.totalCount ?? p.value.results.length), 0);
  return { ...a, totalCount };
}

// ---------------------------------------------------------------------------------------------------------
// Hosts and agents

export async function hostsEverywhere(ctx: ToolContext): Promise<Across<Host>> {
  const e = await everywhere(ctx, 'hosts', (p, signal) =>
    fetchAll((q, s) => ctx.api.hosts.list(p.id, q, { signal: s }), { signal, ...ALL_ITEMS }),
  );
  return across(e, (r) => r.items.sort((x, y) => (x.hostname ?? '').localeCompare(y.hostname ?? '')));
}

export async function agentsEverywhere(
  ctx: ToolContext,
  type: AgentType,
  o: { silent?: boolean },
): Promise<Across<AgentCheck>> {
  const now = ctx.now();
  const global = globalAlertsOnce(ctx.api);
  const e = await everywhere(ctx, `${type} agents`, async (p, signal) => {
    const [agents, alerts] = await Promise.all([
      fetchAll((q, s) => ctx.api.agents.list(p.id, type, q, { signal: s }), { signal, ...ALL_ITEMS }),
      loadOpenAlerts(ctx.api, p.id, { signal, global }).catch(() => undefined),
    ]);
    return reconcileAgents({
      agents: { [type]: agents.items as Agent[] },
      alerts: alerts?.alerts ?? [],
      globalAlertIds: alerts?.globalAlertIds,
      configs: alerts?.configs,
      globalConfigs: alerts?.globalConfigs,
      now,
    }).checks;
  });
  const a = across(e, (checks) => checks);
  const trouble = (c: AgentCheck) => Number(inTrouble(c));
  a.rows = a.rows.filter(({ item }) => o.silent === undefined || trouble(item) === Number(o.silent));
  a.rows.sort((x, y) => trouble(y.item) - trouble(x.item));
  return a;
}
