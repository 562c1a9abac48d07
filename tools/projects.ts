// The projects: the context every toolset carries (each area needs a projectId).
import { listAnswer } from '../src/format/answers.js';
import { projectList } from '../src/format/views/projects.js';
import { page } from '../src/tool/ids.js';
import { defineTool, listOutput, pageQuery } from '../src/tool/index.js';

export const listProjects = defineTool({
  name: 'list_projects',
  title: 'List projects',
  toolset: 'projects',
  example: {},
  description: `The projects (groups) this key sees, with their orgId. Use for projectId and orgId values (a default may be set).`,
  beyondSpec: true,
  kind: 'read',
  input: { ...page },
  output: listOutput,
  run: async (ctx, args) => {
    const r = await ctx.api.projects.list(pageQuery(args), ctx.req);
    await ctx.names.learnOrgs(
      r.results.flatMap((p) => (p.orgId ? [p.orgId] : [])),
      ctx.signal,
    );
    return r;
  },
  format: (result, args, f) =>
    listAnswer(
      result,
      pageQuery(args),
      {
        title: 'Projects',
        ...projectList,
        next: 'triage_project or list_alert_configs with a projectId',
        empty: 'This API key sees no projects.',
      },
      f,
    ),
});

/** This set's tools, in the order tools/list shows them. */
export const tools = [listProjects];
