// The fixed answer shapes every tool and feed shares: a paged list (headline with counts, a fenced table, what
// was left out and how to get it, the next call) and a single record (fenced `**Label**: value` lines).
import type { Page, PageQuery } from '../api/types.js';
import type { Fence } from '../untrusted.js';
import { fields, plural, table } from './markdown.js';
import { redact } from './redact.js';

/** What a formatter knows besides the data: the fence of this answer, "now", and the live policy. */
export interface FormatContext {
  fence: Fence;
  now: Date;
  detailed: boolean;
  /** Whether every call of the named tool asks the person first under the live policy (false if disabled). */
  asksFirst: (toolName: string) => boolean;
  /** What a person calls the ids of this call; the id itself when the name is not known. */
  names: NameBook;
}

/** Each draws "`name` (id)" when the name was learned for this call (src/tool/names.ts), else the id. */
export interface NameBook {
  project(id: string): string;
  user(id: string): string;
  host(id: string): string;
  alertConfig(id: string): string;
  /** An API public key as "key `description` (publicKey)"; anything else (a username) as it is. */
  key(publicKeyOrUsername: string): string;
  /** A project's own name when known (for structured answers; untrusted text, bounded and sanitized there). */
  projectName?(id: string): string | undefined;
  /** An organization as "`name` (id)" where GET /orgs/{id} answered; the id alone otherwise. */
  org?(id: string): string;
}

const asIs = (id: string) => id;
/** For answers drawn without lookups (feeds' JSON, tests of a view alone). */
export const idsOnly: NameBook = { project: asIs, user: asIs, host: asIs, alertConfig: asIs, key: asIs };

export interface ToolAnswer {
  text: string;
  structured: Record<string, unknown>;
}

/** How a list of one entity is drawn: its columns and a row per item (views/ hold one per entity). */
export interface ListView<T> {
  columns: string[];
  /** `names` draws what the row names (an API key as its description, when known). */
  row: (item: T, now: Date, names: NameBook) => unknown[];
}

interface ListSpec<T> extends ListView<T> {
  title: string;
  /** The next call a person would make with a row's id. */
  next?: string;
  empty?: string;
}

export function listAnswer<T>(
  page: Page<T>,
  q: Required<PageQuery>,
  spec: ListSpec<T>,
  f: FormatContext,
): ToolAnswer {
  const results = redact(page.results);
  const shown = results.length;
  const first = (q.pageNum - 1) * q.itemsPerPage + 1;
  const head =
    shown === 0
      ? `# ${spec.title} — ${page.totalCount} total${page.totalCount > 0 ? `, none on page ${q.pageNum}` : ''}`
      : `# ${spec.title} — ${page.totalCount} total, showing ${first}–${first + shown - 1}`;
  const lines = [head];
  const pages = Math.ceil(page.totalCount / q.itemsPerPage);
  // Past the end is not "nothing matches": the filters are fine, the page number is not.
  if (shown === 0 && page.totalCount > 0 && q.pageNum > pages)
    lines.push(
      `Page ${q.pageNum} is past the end: ${page.totalCount} in all, ${plural(pages, 'page')} of ${q.itemsPerPage}. Call again with pageNum=1${pages > 1 ? ` to ${pages}` : ''}.`,
    );
  else if (shown === 0) lines.push(spec.empty ?? 'Nothing to show.');
  else {
    lines.push(f.fence.notice);
    const body = f.detailed
      ? results.map((r) => JSON.stringify(r)).join('\n')
      : table(
          spec.columns,
          results.map((r) => spec.row(r as T, f.now, f.names)),
        );
    lines.push(f.fence.wrap(body));
  }
  const left = page.totalCount - (first - 1 + shown);
  if (left > 0 && shown > 0) lines.push(`${left} more — call again with pageNum=${q.pageNum + 1}.`);
  if (spec.next && shown > 0) lines.push(`Next: ${spec.next}.`);
  return {
    text: lines.join('\n'),
    structured: { totalCount: page.totalCount, pageNum: q.pageNum, itemsPerPage: q.itemsPerPage, results },
  };
}

/** A single record; `pairs` receives the redacted record, so no secret can reach the text. Titles carry ids only. */
export function recordAnswer<T extends object>(
  title: string,
  record: T,
  pairs: (safe: T) => Array<[string, unknown]>,
  f: FormatContext,
  next?: string,
): ToolAnswer {
  const safe = redact(record);
  const body = f.detailed ? JSON.stringify(safe, null, 1) : fields(pairs(safe));
  const lines = [`# ${title}`, f.fence.notice, f.fence.wrap(body)];
  if (next) lines.push(`Next: ${next}.`);
  return { text: lines.join('\n'), structured: { record: safe } };
}
