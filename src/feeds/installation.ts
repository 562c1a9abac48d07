// The installation at a glance: for every project the key sees, its open alerts grouped by cause (with the
// windows that mute them and whether they page), its automation (what fails and why), its agents reconciled with
// the agent-down alerts, and — when asked for a time window — what changed: events, windows that started or
// ended, alerts that opened or closed, and who did it. Projects are then ranked by what matters now.
import { abortError } from '../api/abort.js';
import type { ApiClient, Project } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { Installation, ProjectRead, ProjectView } from '../format/views/triage-projects.js';
import {
  alertContext,
  globalAlertsOnce,
  groupByCause,
  joinDeployment,
  type Part,
  readProject,
  type SharedGlobalAlerts,
} from '../model/index.js';
import {
  ackInForce,
  causeTier,
  dataAvailability,
  projectTier,
  tierRank,
  windowState,
} from '../rules/index.js';
import type { ToolContext } from '../tool/index.js';
import { allProjects, everywhere, spentBudget } from './everywhere.js';

const why = (e: unknown) => (e instanceof ApiError ? e.message : e instanceof Error ? e.message : String(e));

/** What the installation's triage reads of a project: the model's parts (src/model/project.ts). */
const PARTS: readonly Part[] = ['alerts', 'windows', 'automation', 'agents', 'publishes'];
const SINCE_PARTS: readonly Part[] = ['events', 'closed'];
/** A failed part as the answer names it; windows only annotate the alerts (their failure costs nothing). */
const LABEL: Partial<Record<Part, string>> = {
  alerts: 'alerts',
  automation: 'automation',
  agents: 'agents',
  events: 'events',
  closed: 'closed alerts',
  publishes: 'automation events',
};

/** Everything the installation view needs of one project; a part that fails is named, never fatal. */
async function readForTriage(
  api: ApiClient,
  project: Project,
  o: { since?: Date; signal: AbortSignal; global: SharedGlobalAlerts },
): Promise<ProjectRead> {
  const parts = o.since ? [...PARTS, ...SINCE_PARTS] : PARTS;
  const r = await readProject(api, project.id, parts, {
    signal: o.signal,
    since: o.since,
    now: new Date(),
    fates: true,
    global: o.global,
  });
  // Out of time or budget: the project is missing from the answer, not read with holes.
  if (o.signal.aborted) throw abortError(o.signal);
  const spent = r.failed.find((f) => spentBudget(f.error));
  if (spent) throw spent.error;
  const errors = r.failed.flatMap((f) => (LABEL[f.part] ? [`${LABEL[f.part]}: ${why(f.error)}`] : []));
  const read: ProjectRead = {
    project,
    alerts: r.alerts && { ...r.alerts, windows: r.windows ?? null },
    automation: r.automation,
    agents: r.agents,
    events: r.events?.events,
    publishes: r.publishes,
    errors,
  };
  if (r.closed) read.closed = r.closed;
  return read;
}

function viewProject(r: ProjectRead, now: Date): ProjectView {
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
  // The facts of the model's join: processes behind their goal (failing ones), agents with their silence (the
  // alerts' own facts are not drawn here: the causes above are).
  const facts = joinDeployment({ ...r, projectId: r.project.id, events: undefined, failed: [] }, now);
  const behind = facts.processes.flatMap((p) => (p.behind ? [p.process] : []));
  const failingOnes = facts.processes.flatMap((p) => (p.behind?.failing ? [p.process] : []));
  const agents = facts.agents;
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
  const { contradictions } = facts;
  return {
    read: r,
    causes,
    behind,
    failing: failingOnes,
    agents,
    windowsActive,
    tier,
    weight,
    contradictions,
  };
}

const byTier = (x: ProjectView, y: ProjectView) =>
  tierRank(x.tier) - tierRank(y.tier) ||
  y.weight - x.weight ||
  String(x.read.project.name ?? '').localeCompare(String(y.read.project.name ?? ''));

/**
 * The installation's triage: every project the key sees read (a few at a time, within the time limit and the
 * request budget: everywhere.ts) and ranked, and over the last `sinceHours` what changed, with the keys of
 * the organization named where they can be read.
 */
export async function loadInstallation(ctx: ToolContext, o: { sinceHours?: number }): Promise<Installation> {
  const projects = await allProjects(ctx);
  const now = ctx.now();
  // From the start of the minute before: what happened "an hour ago" is in, asked a few seconds later.
  const since =
    o.sinceHours === undefined
      ? undefined
      : new Date(Math.floor((now.getTime() - o.sinceHours * 3_600_000 - 60_000) / 60_000) * 60_000);
  // Keys are named by their description where the organization's keys can be read (who published, who acked).
  const keys = ctx.names.learnKeys({ orgId: projects[0]?.orgId }, ctx.signal);
  const global = globalAlertsOnce(ctx.api);
  const e = await everywhere(
    ctx,
    'triage',
    (p, signal) => readForTriage(ctx.api, p, { since, signal, global }),
    projects,
  );
  await keys;
  const views = e.parts.map((x) => viewProject(x.value, now)).sort(byTier);
  return {
    views,
    projects: e.projects,
    missing: e.missing,
    ...(e.partial ? { partial: e.partial } : {}),
    since: since?.toISOString(),
    hours: o.sinceHours,
  };
}
