// The installation at a glance: for every project the key sees, its open alerts grouped by cause (with the
// windows that mute them and whether they page), its automation (what fails and why), its agents reconciled with
// the agent-down alerts, and — when asked for a time window — what changed: events, windows that started or
// ended, alerts that opened or closed, and who did it. Projects are then ranked by what matters now.
import { mapBounded } from '../api/bounded.js';
import { ifSupported } from '../api/capabilities.js';
import type { ApiClient, Project } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { fetchAll } from '../api/paging.js';
import type { Installation, ProjectRead, ProjectView } from '../format/views/triage-projects.js';
import {
  ackInForce,
  atGoal,
  causeTier,
  dataAvailability,
  failing,
  projectTier,
  tierRank,
  windowState,
} from '../rules/index.js';
import type { ToolContext } from '../tool/index.js';
import { loadAgents, reconcileAgents } from './agents.js';
import { alertContext, groupByCause, loadOpenAlerts } from './alerts.js';
import { loadPublishes } from './automation.js';
import { loadRecentEvents } from './events.js';

const why = (e: unknown) => (e instanceof ApiError ? e.message : e instanceof Error ? e.message : String(e));

/** Everything the installation view needs of one project; a part that fails is named, never fatal. */
export async function readProject(
  api: ApiClient,
  project: Project,
  o: { since?: Date; signal: AbortSignal },
): Promise<ProjectRead> {
  const { signal, since } = o;
  const errors: string[] = [];
  const part = <T>(name: string, p: Promise<T>) =>
    p.catch((e: unknown) => {
      if (signal.aborted) throw e;
      errors.push(`${name}: ${why(e)}`);
      return undefined;
    });
  const id = project.id;
  const [alerts, automation, agents, events, closed] = await Promise.all([
    part('alerts', loadOpenAlerts(api, id, { signal, windows: true })),
    part('automation', api.automation.status(id, { signal })),
    part('agents', loadAgents(api, id, undefined, signal)),
    since ? part('events', loadRecentEvents(api, { projectId: id }, since, signal)) : undefined,
    since
      ? part(
          'closed alerts',
          ifSupported(api, 'projectAlerts', () =>
            fetchAll((q) => api.alerts.list(id, { ...q, status: 'CLOSED' }, { signal }), {
              signal,
              maxItems: 2_000,
            }),
          ),
        )
      : undefined,
  ]);
  const r: ProjectRead = { project, alerts, automation, agents, events: events?.events, errors };
  if (closed) r.closed = closed.items.filter((a) => Date.parse(a.resolved ?? '') >= (since?.getTime() ?? 0));
  if (automation && (automation.processes ?? []).some((p) => !atGoal(p, automation.goalVersion)))
    r.publishes = await part(
      'automation events',
      loadPublishes(api, id, { now: Date.now(), signal, maxItems: 200 }),
    );
  return r;
}

export async function readInstallation(
  api: ApiClient,
  projects: Project[],
  o: {
    since?: Date;
    signal: AbortSignal;
    concurrency: number;
    progress?: (done: number, total: number, m: string) => unknown;
  },
): Promise<ProjectRead[]> {
  let done = 0;
  return mapBounded(projects, o.concurrency, o.signal, async (p, signal) => {
    const r = await readProject(api, p, { since: o.since, signal });
    await o.progress?.(++done, projects.length, `project ${p.name ?? p.id}`);
    return r;
  });
}

export function viewProject(r: ProjectRead, now: Date): ProjectView {
  const a = r.alerts;
  const groups = a ? groupByCause(a.alerts, a.configs, now, alertContext(a)) : [];
  const causes = groups
    .map((group) => {
      const muted = group.window?.state === 'active';
      const c = {
        group,
        muted,
        loud: muted ? 0 : group.alerts.filter((x) => !ackInForce(x, now)).length,
        dataAvailability: dataAvailability(group.eventTypeName),
        paging: (group.pages ?? []).length > 0,
        tracking: group.alerts.every((x) => x.status === 'TRACKING'),
      };
      return { ...c, tier: causeTier(c) };
    })
    .sort(
      (x, y) =>
        tierRank(x.tier) - tierRank(y.tier) ||
        Number(y.paging) - Number(x.paging) ||
        y.loud - x.loud ||
        (Date.parse(x.group.oldest ?? '') || 0) - (Date.parse(y.group.oldest ?? '') || 0),
    );
  const s = r.automation;
  const behind = s ? (s.processes ?? []).filter((p) => !atGoal(p, s.goalVersion)) : [];
  const failingOnes = behind.filter(failing);
  const agents = r.agents
    ? reconcileAgents({
        agents: r.agents,
        alerts: a?.alerts ?? [],
        globalAlertIds: a?.globalAlertIds,
        configs: a?.configs,
        globalConfigs: a?.globalConfigs,
        now,
      })
    : undefined;
  const windowsActive = (a?.windows ?? []).filter((w) => windowState(w, now) === 'active');
  const tier = projectTier(
    causes.map((c) => c.tier),
    {
      failing: failingOnes.length > 0,
      silentAgent: Boolean(agents?.checks.some((c) => c.silent)),
      behind: behind.length > 0,
    },
  );
  const weight = causes.reduce((n, c) => n + c.loud, 0) * 1_000 + (a?.alerts.length ?? 0);
  return { read: r, causes, behind, failing: failingOnes, agents, windowsActive, tier, weight };
}

export const byTier = (x: ProjectView, y: ProjectView) =>
  tierRank(x.tier) - tierRank(y.tier) ||
  y.weight - x.weight ||
  String(x.read.project.name ?? '').localeCompare(String(y.read.project.name ?? ''));

/** Projects read at once: the platform's rate limit is shared by every caller of the key. */
const CONCURRENCY = 4;

/**
 * The installation's triage: every project the key sees (up to `maxProjects`) read and ranked, and over the last
 * `sinceHours` what changed, with the keys of the organization named where they can be read.
 */
export async function loadInstallation(
  ctx: ToolContext,
  o: { maxProjects: number; sinceHours?: number },
): Promise<Installation> {
  const { items: projects, truncated } = await fetchAll((q, signal) => ctx.api.projects.list(q, { signal }), {
    maxItems: o.maxProjects,
    signal: ctx.signal,
  });
  const now = ctx.now();
  // From the start of the minute before: what happened "an hour ago" is in, asked a few seconds later.
  const since =
    o.sinceHours === undefined
      ? undefined
      : new Date(Math.floor((now.getTime() - o.sinceHours * 3_600_000 - 60_000) / 60_000) * 60_000);
  // Keys are named by their description where the organization's keys can be read (who published, who acked).
  const keys = ctx.names.learnKeys({ orgId: projects[0]?.orgId }, ctx.signal);
  const reads = await readInstallation(ctx.api, projects, {
    since,
    signal: ctx.signal,
    concurrency: CONCURRENCY,
    progress: ctx.progress,
  });
  await keys;
  const views = reads.map((x) => viewProject(x, now)).sort(byTier);
  return { views, truncated, since: since?.toISOString(), hours: o.sinceHours };
}
