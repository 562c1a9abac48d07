// What the triage of a project reads, at once: its open alerts, its automation (and the goal's publish), the
// events of the window, its maintenance windows and its agents, each section either read or named with why it
// could not be; and the change events a configuration's own "updated" must agree with.
import { abortError } from '../api/abort.js';
import type { ApiEvent } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { TRIAGE_SECTIONS, type Triage, type TriageSection } from '../format/views/triage.js';
import type { AlertGroup } from '../model/index.js';
import {
  alertContext,
  groupByCause,
  type Part,
  type ProjectRecords,
  readProject,
  reconcileAgents,
} from '../model/index.js';
import type { ToolContext } from '../tool/index.js';

/** The model's part each section is read from. */
const PART_OF: Record<TriageSection, Part> = {
  alerts: 'alerts',
  automation: 'automation',
  events: 'events',
  maintenanceWindows: 'windows',
  agents: 'agents',
};

/** Puts what each section's read gave into the triage: its value, or its error (once for a spent budget). */
function settle(t: Triage, r: ProjectRecords, ctx: ToolContext): unknown[] {
  const failures: unknown[] = [];
  for (const section of TRIAGE_SECTIONS) {
    const failed = r.failed.find((f) => f.part === PART_OF[section]);
    if (failed) {
      failures.push(failed.error);
      const spent = failed.error instanceof ApiError && failed.error.errorCode === 'RATE_BUDGET_SPENT';
      if (spent) t.budget ??= (failed.error as ApiError).message;
      const message = spent
        ? 'not read: the request budget is spent (above)'
        : failed.error instanceof ApiError
          ? failed.error.message
          : String(failed.error);
      t.errors.push({ section, message });
      ctx.logger.debug('triage section failed', { section, error: message });
    } else if (section === 'alerts') t.alerts = r.alerts;
    else if (section === 'automation') t.automation = r.automation;
    else if (section === 'events') t.events = r.events;
    else if (section === 'agents') t.agents = agentsOf(r, t.until);
    else t.windows = r.windows ?? null;
  }
  return failures;
}

/** The agents reconciled with the open agent-down alerts (none when the alerts could not be read). */
function agentsOf(r: ProjectRecords, now: string): Triage['agents'] {
  const a = r.alerts;
  return reconcileAgents({
    agents: r.agents ?? {},
    alerts: a?.alerts ?? [],
    globalAlertIds: a?.globalAlertIds,
    configs: a?.configs,
    globalConfigs: a?.globalConfigs,
    now: new Date(now),
  });
}

/** The triage of a project over the last `hours`: every section read at once, a failed one named. */
export async function readTriage(ctx: ToolContext, projectId: string, hours: number): Promise<Triage> {
  const now = ctx.now();
  const since = new Date(now.getTime() - hours * 3_600_000);
  const { signal, api } = ctx;
  let done = 0;
  const progress = (part: Part) =>
    part !== 'publishes' && void ctx.progress(++done, TRIAGE_SECTIONS.length, `read ${sectionOf(part)}`);
  const keys = api.budget?.limited ? Promise.resolve() : ctx.names.learnKeys({ projectId }, signal);
  // The goal's publish (read only when a process is behind it) says since when and by whom, whatever the window.
  const r = await readProject(api, projectId, [...TRIAGE_SECTIONS.map((s) => PART_OF[s]), 'publishes'], {
    signal,
    now,
    since,
    progress,
    fates: true,
  });
  await (api.budget?.limited ? ctx.names.learnKeys({ projectId }, signal) : keys);
  if (signal.aborted) throw abortError(signal);
  const t: Triage = { projectId, since: since.toISOString(), until: now.toISOString(), hours, errors: [] };
  const failures = settle(t, r, ctx);
  // Only explains: a failed read leaves the window's own publish event to say it.
  if (r.publishes?.[0]) t.publish = r.publishes[0];
  // Nothing could be read (an unknown project, a wrong key): that is the answer, not a triage.
  if (failures.length === TRIAGE_SECTIONS.length) throw failures[0];
  return t;
}

const sectionOf = (part: Part): TriageSection => TRIAGE_SECTIONS.find((s) => PART_OF[s] === part) ?? 'alerts';

/** The change events a configuration's own "updated" must agree with. */
const CONFIG_CHANGES = [
  'ALERT_CONFIG_CHANGED_AUDIT',
  'ALERT_CONFIG_ENABLED_AUDIT',
  'ALERT_CONFIG_DISABLED_AUDIT',
];

/** This configuration's change events, newest first; undefined when the events cannot be read. */
export async function configChanges(
  ctx: ToolContext,
  projectId: string,
  alertConfigId: string,
): Promise<ApiEvent[] | undefined> {
  try {
    const page = await ctx.api.events.listForProject(
      projectId,
      { eventType: CONFIG_CHANGES, itemsPerPage: 500 },
      ctx.req,
    );
    return page.results
      .filter((e) => e.alertConfigId === alertConfigId)
      .sort((a, b) => (Date.parse(b.created ?? '') || 0) - (Date.parse(a.created ?? '') || 0));
  } catch (e) {
    ctx.logger.debug('change events not readable; Updated shows the platform field alone', {
      error: String(e),
    });
    return undefined;
  }
}

/** The triage's open alerts grouped by cause, with the windows that mute them and the events that explain them. */
export function triageCauses(t: Triage, now: Date): AlertGroup[] {
  return t.alerts
    ? groupByCause(t.alerts.alerts, t.alerts.configs, now, {
        ...alertContext(t.alerts),
        windows: t.windows,
        events: t.events?.events,
      })
    : [];
}
