// "What is on fire across the installation?": every project the key sees, its open alerts counted, the most
// urgent first, in one short answer with the next call for each project that needs one.
import { z } from 'zod';
import { mapBounded } from '../src/api/bounded.js';
import { fetchAll } from '../src/api/paging.js';
import { loadOpenAlerts } from '../src/feeds/alerts.js';
import { listAnswer } from '../src/format/answers.js';
import { alarmList, byUrgency, type ProjectAlarm } from '../src/format/views/projects.js';
import { defineTool, listOutput } from '../src/tool/index.js';

/** Projects read at once: the platform's rate limit is shared by every caller of the key. */
const CONCURRENCY = 4;
const MAX_PROJECTS = 200;
/** Rows in the answer: the rest are quiet or fewer, and the answer must stay under 4,000 characters. */
const SHOWN = 15;

export const triageInstallation = defineTool({
  name: 'triage_installation',
  title: 'Triage the whole installation',
  description:
    'Counts the open alerts of every project the key sees, most urgent first. Use first for what is on fire anywhere; then triage_project.',
  kind: 'read',
  input: {
    maxProjects: z.number().int().min(1).max(MAX_PROJECTS).optional().describe(`Default ${MAX_PROJECTS}`),
  },
  output: listOutput,
  run: async (ctx, args) => {
    const { items: projects, truncated } = await fetchAll(
      (q, signal) => ctx.api.projects.list(q, { signal }),
      {
        maxItems: args.maxProjects ?? MAX_PROJECTS,
        signal: ctx.signal,
      },
    );
    let done = 0;
    const alarms = await mapBounded(projects, CONCURRENCY, ctx.signal, async (p, signal) => {
      const alarm: ProjectAlarm = { projectId: p.id, name: p.name, open: 0, unacknowledged: 0 };
      try {
        const r = await loadOpenAlerts(ctx.api, p.id, { signal, statuses: ['OPEN'] });
        const now = ctx.now().getTime();
        alarm.open = r.alerts.length;
        alarm.unacknowledged = r.alerts.filter(
          (a) => !a.acknowledgedUntil || Date.parse(a.acknowledgedUntil) <= now,
        ).length;
        alarm.since = r.alerts.map((a) => a.created ?? '').sort()[0] || undefined;
      } catch (e) {
        if (signal.aborted) throw e;
        alarm.error = (e as Error).message;
      }
      await ctx.progress(++done, projects.length, `project ${p.name ?? p.id}`);
      return alarm;
    });
    alarms.sort(byUrgency);
    return { alarms, truncated };
  },
  format: (r, _args, f) => {
    const burning = r.alarms.filter((a) => a.open > 0).length;
    const shown = r.alarms.slice(0, Math.max(SHOWN, 1));
    const answer = listAnswer(
      { results: shown, totalCount: r.alarms.length, links: [] },
      { pageNum: 1, itemsPerPage: shown.length || 1 },
      {
        title: `Installation: ${burning} of ${r.alarms.length} projects with open alerts`,
        ...alarmList,
        next: 'triage_project with the projectId of each project that has open alerts',
        empty: 'This API key sees no projects.',
      },
      f,
    );
    const hidden = r.alarms.length - shown.length;
    if (hidden > 0) answer.text += `\n${hidden} more projects, quieter than these, are left out.`;
    if (r.truncated) answer.text += '\nMore projects exist than were read (maxProjects).';
    return answer;
  },
});

export const installationTools = [triageInstallation];
