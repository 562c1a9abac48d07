// A project's automation and what explains a process behind its goal: the newest publishes of the automation
// configuration (who set the goal, and when) and the windows in force. One reading for get_automation_status
// and the installation's triage.
import type { ApiClient, ApiEvent } from '../api/client.js';
import { fetchAll } from '../api/paging.js';
import type { AutomationRead } from '../format/views/deployment.js';
import { atGoal } from '../rules/index.js';
import type { ToolContext } from '../tool/index.js';
import { loadWindows } from './alerts.js';
import { newestFirst } from './events.js';

const PUBLISHED = 'AUTOMATION_CONFIG_PUBLISHED_AUDIT';
/** How far back the publish of the current goal is looked for. */
const PUBLISH_LOOKBACK_MS = 30 * 24 * 3_600_000;

/** The publishes of a project's automation configuration over the lookback before `now`, newest first. */
export async function loadPublishes(
  api: ApiClient,
  projectId: string,
  o: { now: number; signal: AbortSignal; maxItems: number },
): Promise<ApiEvent[]> {
  const { signal } = o;
  const minDate = new Date(o.now - PUBLISH_LOOKBACK_MS).toISOString();
  const { items } = await fetchAll(
    (q) => api.events.listForProject(projectId, { ...q, eventType: [PUBLISHED], minDate }, { signal }),
    { signal, maxItems: o.maxItems },
  );
  return items.filter((e) => e.eventTypeName === PUBLISHED).sort(newestFirst);
}

/** Each read only explains: a failure (or a server without it) leaves it out. */
async function quietly<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch {
    return undefined;
  }
}

/**
 * A project's automation status and, when a process is behind, why it may be stuck: the goal's publish (and by
 * whom) and the windows. Both only explain: failing to read them must not cost the status itself.
 */
export async function readAutomation(ctx: ToolContext, projectId: string): Promise<AutomationRead> {
  const status = await ctx.api.automation.status(projectId, ctx.req);
  if ((status.processes ?? []).every((p) => atGoal(p, status.goalVersion))) return { status };
  const signal = ctx.signal;
  const [published, windows] = await Promise.all([
    quietly(
      async () =>
        (await loadPublishes(ctx.api, projectId, { now: ctx.now().getTime(), signal, maxItems: 100 }))[0],
    ),
    quietly(() => loadWindows(ctx.api, projectId, signal)),
    // Keys are named by their description where the organization's keys can be read (who published).
    quietly(() => ctx.names.learnKeys({ projectId }, signal)),
  ]);
  return { status, published, windows };
}
