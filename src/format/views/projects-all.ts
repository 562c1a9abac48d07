// A list across every project (`projectId: "all"`): one table whose first column names each row's project,
// in the order the question needs (most urgent, oldest, soonest), a page at a time; then what was left out and
// how to narrow it, and — when the read was partial — which projects were not read and why.
import type { PageQuery } from '../../api/types.js';
import { named } from '../../untrusted.js';
import type { FormatContext, ListView, ToolAnswer } from '../answers.js';
import { plural, table } from '../markdown.js';
import { redact } from '../redact.js';

export interface ProjectRef {
  id: string;
  name?: string;
}

/** A project whose part of the answer is missing, and why. */
export interface Missing {
  project: ProjectRef;
  why: string;
}

export interface Across<T> {
  /** The rows, filtered and in the answer's order, each with its project. */
  rows: Array<{ project: ProjectRef; item: T }>;
  /** Projects the key sees, and how many of them were read. */
  projects: number;
  read: number;
  missing: Missing[];
  /** Why some projects are missing (a time limit, a spent budget). */
  partial?: string;
}

interface AcrossSpec<T> extends ListView<T> {
  /** "Open alerts", "Maintenance windows"… */
  title: string;
  /** "most urgent first" */
  order: string;
  /** The filters given, in words ("unacknowledged, paging"), if any. */
  filters?: string;
  /** How to narrow the list: the arguments that would. */
  narrow: string;
  next?: string;
  empty: string;
}

/** Missing projects named in the text, at most; the rest counted. */
const NAMED_MISSING = 8;

const projectCell = (p: ProjectRef) => p.name ?? p.id;

/** Which projects a read across the installation left out, and why: nothing when none. */
export function missingLines(
  a: Pick<Across<unknown>, 'missing' | 'projects' | 'read' | 'partial'>,
): string[] {
  if (!a.missing.length) return [];
  const byWhy = new Map<string, ProjectRef[]>();
  for (const m of a.missing) byWhy.set(m.why, [...(byWhy.get(m.why) ?? []), m.project]);
  const lines = [
    `**Partial answer**: ${a.read} of ${plural(a.projects, 'project')} read${a.partial ? ` — ${a.partial}` : ''}.`,
  ];
  for (const [why, projects] of byWhy) {
    const shown = projects.slice(0, NAMED_MISSING).map((p) => named(p.name, p.id, 40));
    const more = projects.length - shown.length;
    lines.push(`Missing (${why}): ${shown.join(', ')}${more ? ` and ${more} more` : ''}.`);
  }
  lines.push('Call again to read them (reads already made are kept a few seconds), or give one projectId.');
  return lines;
}

/** The page of rows across projects, what was left out, how to narrow, and what is missing. */
export function acrossAnswer<T>(
  a: Across<T>,
  q: Required<PageQuery>,
  spec: AcrossSpec<T>,
  f: FormatContext,
): ToolAnswer {
  const total = a.rows.length;
  const from = (q.pageNum - 1) * q.itemsPerPage;
  const page = a.rows.slice(from, from + q.itemsPerPage);
  const where = `across ${plural(a.projects, 'project')}`;
  const filters = spec.filters ? ` (${spec.filters})` : '';
  const lines = [
    page.length
      ? `# ${spec.title}${filters} ${where} — ${total} in ${plural(new Set(a.rows.map((r) => r.project.id)).size, 'project')}, ${spec.order}, showing ${from + 1}–${from + page.length}`
      : `# ${spec.title}${filters} ${where} — ${total}`,
  ];
  if (!page.length)
    lines.push(total ? `Page ${q.pageNum} is past the end: call again with pageNum=1.` : spec.empty);
  else {
    lines.push(f.fence.notice);
    const body = f.detailed
      ? page.map((r) => JSON.stringify({ project: r.project, ...redact(r.item as object) })).join('\n')
      : table(
          ['project', ...spec.columns],
          page.map((r) => [projectCell(r.project), ...spec.row(r.item, f.now, f.names)]),
        );
    lines.push(f.fence.wrap(body));
  }
  const left = total - from - page.length;
  if (left > 0) lines.push(`${left} more — pageNum=${q.pageNum + 1}, or narrow: ${spec.narrow}.`);
  lines.push(...missingLines(a));
  if (spec.next && page.length) lines.push(`Next: ${spec.next}.`);
  return {
    text: lines.join('\n'),
    structured: {
      totalCount: total,
      pageNum: q.pageNum,
      itemsPerPage: q.itemsPerPage,
      results: page.map((r) => ({
        projectId: r.project.id,
        projectName: r.project.name,
        ...redact(r.item as object),
      })),
      projects: { seen: a.projects, read: a.read },
      ...(a.missing.length
        ? { partial: true, missing: a.missing.map((m) => ({ projectId: m.project.id, why: m.why })) }
        : {}),
    },
  };
}
