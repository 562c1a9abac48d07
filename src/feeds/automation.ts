// A project's automation and what explains a process behind its goal: the newest publishes of the automation
// configuration (who set the goal, and when) and the windows in force. One reading for get_automation_status
// and the installation's triage.
import type { AutomationRead } from '../format/views/deployment.js';
import { projectReader } from '../model/index.js';
import { atGoal } from '../rules/index.js';
import type { ToolContext } from '../tool/index.js';

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
  const { signal } = ctx;
  const reader = projectReader(ctx.api, projectId, { signal, now: ctx.now(), maxPublishes: 100 });
  const status = (await reader.part('automation'))!;
  if ((status.processes ?? []).every((p) => atGoal(p, status.goalVersion))) return { status };
  const [publishes, windows] = await Promise.all([
    quietly(() => reader.part('publishes')),
    quietly(() => reader.part('windows')),
    // Keys are named by their description where the organization's keys can be read (who published).
    quietly(() => ctx.names.learnKeys({ projectId }, signal)),
  ]);
  return { status, published: publishes?.[0], windows };
}
