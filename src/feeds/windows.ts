// What a maintenance window would touch in its project, read for its preview: the configurations and open
// alerts it silences (with the pages that go quiet), and the windows it overlaps or adjoins.
import type { Quiet, Silenced } from '../format/views/windows.js';
import { alertWhere, loadOpenAlerts, loadWindows } from '../model/index.js';
import { alertTypeOf, pagingServices, windowNeighbours } from '../rules/index.js';
import type { ToolContext } from '../tool/index.js';

/**
 * What a window muting these alert types silences in the project: its enabled configurations of those types
 * and its open alerts of them, each with the paging services it notifies. Windows have no hosts: every host
 * of the project is in scope.
 */
export async function whatGoesQuiet(ctx: ToolContext, projectId: string, types: string[]): Promise<Quiet> {
  let r: Awaited<ReturnType<typeof loadOpenAlerts>>;
  try {
    r = await loadOpenAlerts(ctx.api, projectId, { signal: ctx.signal });
  } catch (e) {
    if (ctx.signal.aborted) throw e;
    ctx.logger.debug('alert configurations not readable for a window preview', { error: String(e) });
    // Not known what goes quiet, pages included: the preview says so, and the change asks first.
    return { configs: [], pagingConfigs: [], unread: true };
  }
  const muted = (eventTypeName: string | undefined) => types.includes(alertTypeOf(eventTypeName) ?? '');
  const global = new Set(r.globalAlertIds);
  const configs = r.configs.filter((c) => c.enabled !== false && muted(c.eventTypeName));
  const open = r.alerts.filter((a) => !global.has(a.id ?? '') && muted(a.eventTypeName));
  const silenced: Silenced[] = configs.map((config) => ({
    config,
    pages: pagingServices(config),
    open: open.filter((a) => a.alertConfigId === config.id).map(alertWhere),
  }));
  // Open alerts of a configuration not listed (disabled since, or unreadable) still go quiet.
  const listed = new Set(configs.map((c) => c.id));
  for (const alert of open.filter((x) => !listed.has(x.alertConfigId ?? '')))
    silenced.push({ alert, pages: [], open: [alertWhere(alert)] });
  return {
    configs: silenced,
    pagingConfigs: configs.filter((c) => pagingServices(c).length).map((c) => c.id),
    unread: false,
  };
}

/** The project's windows that overlap this span or adjoin it (none when the list cannot be read). */
export async function windowsNextTo(
  ctx: ToolContext,
  projectId: string,
  span: { id?: string; startDate?: string; endDate?: string },
) {
  const windows = await loadWindows(ctx.api, projectId, ctx.signal).catch((e: unknown) => {
    if (ctx.signal.aborted) throw e;
    return null;
  });
  return windowNeighbours(span, windows ?? []);
}
