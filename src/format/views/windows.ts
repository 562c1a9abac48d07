// How a maintenance window looks to a person: its state (upcoming, active, ended) and its fields.
import type { Alert, AlertConfig, MaintenanceWindow } from '../../api/types.js';
import { alertWhat } from '../../model/index.js';
import { windowState } from '../../rules/index.js';
import { cell, named } from '../../untrusted.js';
import { type FormatContext, type ListView, recordAnswer, type ToolAnswer } from '../answers.js';
import type { Preview } from '../consent.js';
import { stamp, utc, when } from '../markdown.js';
import { conditionWords, windowCalled } from './alerts.js';
import { type NeighbourView, neighbourLines, neighboursData } from './windows-neighbours.js';

function windowPairs(w: MaintenanceWindow, now: Date): Array<[string, unknown]> {
  return [
    ['State', windowState(w, now)],
    ['Starts', when(w.startDate, now)],
    ['Ends', when(w.endDate, now)],
    ['Mutes', w.alertTypeNames],
    ['Description', w.description],
  ];
}

/** The window as a preview shows it before a change. */
function windowCurrent(w: MaintenanceWindow, now: Date): Record<string, unknown> {
  return {
    state: windowState(w, now),
    startDate: w.startDate,
    endDate: w.endDate,
    alertTypeNames: (w.alertTypeNames ?? []).join(', '),
    description: w.description,
  };
}

export const windowList: ListView<MaintenanceWindow> = {
  columns: ['windowId', 'state', utc('start'), utc('end'), 'alert types', 'description'],
  row: (w: MaintenanceWindow, now: Date) => [
    w.id,
    windowState(w, now),
    stamp(w.startDate, now),
    stamp(w.endDate, now),
    (w.alertTypeNames ?? []).join(', '),
    w.description,
  ],
};

/** The windows in force next to a triage: which, until when, what they mute. */
export const windowInForceList: ListView<MaintenanceWindow> = {
  columns: ['windowId', utc('ends'), 'mutes', 'description'],
  row: (w, now) => [w.id, stamp(w.endDate, now), (w.alertTypeNames ?? []).join(', '), w.description],
};

/** What each alert type a window mutes covers, in words (alert types are categories of event types). */
const TYPE_COVERS: Record<string, string> = {
  HOST: 'every host alert: host down (HOST_DOWN) and every host metric — CPU, memory, connections, asserts, replication lag, query targeting, disk space on every partition',
  REPLICA_SET: 'every replica set alert: no primary, elections, oplog window, resync required, member state',
  CLUSTER: 'every sharded cluster alert: shards, balancer, mongos',
  AGENT: 'every agent alert: monitoring, automation and backup agents down',
  BACKUP: 'every backup alert: backup agent down, snapshots, oplog behind',
};

/**
 * "muted by "Patch rs-ledger" (window mutes HOST project-wide)": which window and why it applies — windows
 * mute alert types for the whole project, whatever their description names.
 */
export function mutedBy(w: Pick<MaintenanceWindow, 'id' | 'description' | 'alertTypeNames'>): string {
  const types = (w.alertTypeNames ?? []).join(', ') || 'its alert types';
  return `muted by ${windowCalled(w)} (window mutes ${types} project-wide)`;
}

/**
 * A configuration a window would silence, or an open alert whose configuration is not listed (disabled since,
 * or unreadable): the paging services it notifies, where it is open now.
 */
export interface Silenced {
  config?: AlertConfig;
  alert?: Alert;
  pages: string[];
  /** Where its open alerts are (hosts, replica sets): they go quiet too. */
  open: string[];
}

const MAX_LISTED = 8;

const label = (x: Silenced): string =>
  x.config ? conditionWords(x.config) : x.alert ? alertWhat(x.alert) : 'an alert';

/** One line per configuration: "`Connections > 4000` — pages via PagerDuty — open on `db-1:27017`, …". */
function silencedLine(x: Silenced): string {
  const where = x.open.slice(0, 3).map((w) => `\`${cell(w, 60).replace(/`/g, "'")}\``);
  const more = x.open.length > 3 ? ` and ${x.open.length - 3} more` : '';
  return [
    `\`${cell(label(x), 100).replace(/`/g, "'")}\``,
    ...(x.pages.length ? [`pages via ${x.pages.join(', ')}`] : []),
    ...(x.open.length ? [`${x.open.length} open: ${where.join(', ')}${more}`] : []),
  ].join(' — ');
}

/**
 * The notes of a window preview (outside the data fence, so every platform text in them is sanitized and
 * code-quoted): what goes quiet by name, paging first; that it is project-wide; what its types cover (HOST
 * cannot be narrowed to disk alerts).
 */
function silenceNotes(s: {
  types: string[];
  configs: Silenced[];
  /** The project's alert configurations could not be read: what goes quiet is unknown. */
  unread?: boolean;
  from?: string;
  to?: string;
}): string[] {
  const paging = s.configs.filter((x) => x.pages.length);
  const ordered = [...paging, ...s.configs.filter((x) => !x.pages.length)];
  const open = (xs: Silenced[]) => xs.reduce((n, x) => n + x.open.length, 0);
  const notes: string[] = [];
  if (paging.length)
    notes.push(
      `⚠ Pages go quiet: ${paging.length} paging configuration${paging.length === 1 ? '' : 's'} (${open(paging)} open alert${open(paging) === 1 ? '' : 's'}) notify nobody while the window is in force (alerts still open).`,
    );
  notes.push(
    // The action line above names the project.
    `Project-wide: a maintenance window has no hosts, so it mutes ${s.types.join(', ')} alerts on every host of the project, whatever its description names.`,
  );
  for (const t of s.types) if (TYPE_COVERS[t]) notes.push(`${t} covers ${TYPE_COVERS[t]}.`);
  if (s.types.includes('HOST'))
    notes.push(
      'Disk alerts cannot be muted alone: muting HOST silences host down pages too. To quiet only disk alerts, acknowledge the open ones until the work ends (acknowledge_alert), or disable the disk configurations for its duration (set_alert_config_enabled).',
    );
  if (s.unread)
    notes.push(
      "⚠ The project's alert configurations could not be read: what goes quiet is unknown, pages included.",
    );
  else if (!s.configs.length) notes.push('No enabled alert configuration of this project is of these types.');
  else {
    notes.push(
      `Goes quiet: ${s.configs.length} configuration${s.configs.length === 1 ? '' : 's'} and ${open(s.configs)} open alert${open(s.configs) === 1 ? '' : 's'}, paging first:`,
    );
    for (const x of ordered.slice(0, MAX_LISTED)) notes.push(silencedLine(x));
    if (ordered.length > MAX_LISTED)
      notes.push(`and ${ordered.length - MAX_LISTED} more (list_alert_configs lists them).`);
  }
  // A new window's times are its preview's startDate and endDate, just above; a changed one's are said here.
  // With pages going quiet, the warning above has already said that alerts still open but notify nobody.
  if (s.from && s.to)
    notes.push(
      `Notifications for ${s.types.join(', ')} alerts are muted from ${s.from} to ${s.to}; alerts still open, but nobody is told.`,
    );
  else if (!paging.length)
    notes.push(`While it is in force, ${s.types.join(', ')} alerts still open but notify nobody.`);
  return notes;
}

/** What a window muting some alert types silences in its project, as read for a preview. */
export interface Quiet {
  configs: Silenced[];
  /** The enabled configurations among them that page someone. */
  pagingConfigs: string[];
  /** The project's alert configurations could not be read: what goes quiet is unknown, pages included. */
  unread: boolean;
}

/** How many paging configurations go quiet, for the consent decision: unknown counts as one. */
const pagesSilenced = (q: Quiet) => (q.unread ? 1 : q.pagingConfigs.length);

type NewWindow = {
  projectId: string;
  startDate: string;
  endDate: string;
  alertTypeNames: string[];
  description?: string;
};

export function windowCreatePreview(
  args: NewWindow,
  quiet: Quiet,
  project: string,
  now: Date,
  next: readonly NeighbourView[] = [],
): Preview {
  return {
    quiet: quietLines(quiet),
    action: `Create a maintenance window in project ${project} muting ${args.alertTypeNames.join(', ')} project-wide`,
    target: { project: args.projectId },
    changes: [
      { field: 'startDate', to: when(args.startDate, now) },
      { field: 'endDate', to: when(args.endDate, now) },
      { field: 'alertTypeNames', to: args.alertTypeNames.join(', ') },
      ...(args.description ? [{ field: 'description', to: args.description }] : []),
    ],
    proposed: {
      startDate: args.startDate,
      endDate: args.endDate,
      alertTypeNames: args.alertTypeNames,
      pagesSilenced: pagesSilenced(quiet),
    },
    notes: silenceNotes({
      types: args.alertTypeNames,
      configs: quiet.configs,
      unread: quiet.unread,
    }).concat(neighbourLines(next, now, true)),
  };
}

/** What goes quiet, paging first, a line each ("none" when nothing of these types is configured). */
function quietLines(q: Quiet): string[] {
  if (q.unread) return ['not known: the alert configurations could not be read'];
  const ordered = [...q.configs].sort((a, b) => Number(b.pages.length > 0) - Number(a.pages.length > 0));
  return ordered.length
    ? ordered.slice(0, MAX_LISTED).map(silencedLine)
    : ['no configuration of these types'];
}

/** A change to a window as resolved against the window now: the fields given, and the window after it. */
interface WindowChange {
  projectId: string;
  maintenanceWindowId: string;
  body: { startDate?: string; endDate?: string; alertTypeNames?: string[]; description?: string };
  start?: string;
  end?: string;
  types: string[];
  /** New types, an earlier start or a later end: only then do the pages it silences count. */
  widens: boolean;
}

function windowChanges(
  w: MaintenanceWindow,
  body: WindowChange['body'],
  now: Date,
): NonNullable<Preview['changes']> {
  const changes: NonNullable<Preview['changes']> = [];
  if (body.startDate)
    changes.push({ field: 'startDate', from: when(w.startDate, now), to: when(body.startDate, now) });
  if (body.endDate)
    changes.push({ field: 'endDate', from: when(w.endDate, now), to: when(body.endDate, now) });
  if (body.alertTypeNames)
    changes.push({
      field: 'alertTypeNames',
      from: (w.alertTypeNames ?? []).join(', '),
      to: body.alertTypeNames.join(', '),
    });
  if (body.description !== undefined)
    changes.push({ field: 'description', from: w.description, to: body.description });
  return changes;
}

export function windowUpdatePreview(
  w: MaintenanceWindow,
  c: WindowChange,
  quiet: Quiet,
  project: string,
  now: Date,
  next: readonly NeighbourView[] = [],
): Preview {
  return {
    quiet: quietLines(quiet),
    action: `Update maintenance window ${named(w.description, c.maintenanceWindowId)} in project ${project}`,
    target: { project: c.projectId, maintenanceWindowId: c.maintenanceWindowId },
    current: windowCurrent(w, now),
    changes: windowChanges(w, c.body, now),
    proposed: {
      maintenanceWindowId: c.maintenanceWindowId,
      startDate: c.start,
      endDate: c.end,
      alertTypeNames: c.types,
      pagesSilenced: c.widens ? pagesSilenced(quiet) : 0,
    },
    notes: silenceNotes({
      types: c.types,
      configs: quiet.configs,
      unread: quiet.unread,
      from: when(c.start, now),
      to: when(c.end, now),
    }).concat(neighbourLines(next, now, true)),
  };
}

export function windowDeletePreview(
  w: MaintenanceWindow,
  args: { projectId: string; maintenanceWindowId: string },
  project: string,
  now: Date,
): Preview {
  const types = (w.alertTypeNames ?? []).join(', ') || 'its alert types';
  return {
    action: `Delete maintenance window ${named(w.description, args.maintenanceWindowId)} in project ${project} (ends ${when(w.endDate, now) ?? '?'})`,
    target: { project: args.projectId, maintenanceWindowId: args.maintenanceWindowId },
    current: windowCurrent(w, now),
    notes: [
      windowState(w, now) === 'upcoming'
        ? `This window has not started: nothing is muted yet. Deleting it cancels the planned muting of ${types} notifications from ${when(w.startDate, now)} to ${when(w.endDate, now)}.`
        : `Notifications for ${types} resume as soon as the window is deleted.`,
    ],
  };
}

export const windowAnswer = (w: MaintenanceWindow, id: string, f: FormatContext): ToolAnswer =>
  recordAnswer(
    `Maintenance window ${id}`,
    w,
    (s) => windowPairs(s, f.now),
    f,
    'update_maintenance_window to move or extend it, delete_maintenance_window to end it',
  );

/** A window made or changed, with the project's windows next to it (they overlap it or adjoin it). */
function withNeighbours(a: ToolAnswer, next: readonly NeighbourView[], now: Date): ToolAnswer {
  if (!next.length) return a;
  const lines = a.text.split('\n');
  const at = lines.findIndex((l) => l.startsWith('Next: '));
  lines.splice(at < 0 ? lines.length : at, 0, ...neighbourLines(next, now));
  return { text: lines.join('\n'), structured: { ...a.structured, nextTo: neighboursData(next) } };
}

export const windowCreatedAnswer = (
  w: MaintenanceWindow,
  f: FormatContext,
  next: readonly NeighbourView[] = [],
): ToolAnswer =>
  withNeighbours(
    recordAnswer(
      `Maintenance window ${cell(w.id, 40)} created`,
      w,
      (s) => windowPairs(s, f.now),
      f,
      `delete_maintenance_window with maintenanceWindowId=${cell(w.id, 40)} ends it early`,
    ),
    next,
    f.now,
  );

export const windowUpdatedAnswer = (
  w: MaintenanceWindow,
  id: string,
  f: FormatContext,
  next: readonly NeighbourView[] = [],
): ToolAnswer =>
  withNeighbours(
    recordAnswer(`Maintenance window ${id} updated`, w, (s) => windowPairs(s, f.now), f),
    next,
    f.now,
  );

/** A deleted window: what the delete did depends on whether the window had started. */
export const windowDeletedAnswer = <R extends { maintenanceWindowId: string; state?: string }>(
  r: R,
): ToolAnswer => ({
  text: `# Maintenance window ${r.maintenanceWindowId} deleted\n${
    r.state === 'upcoming'
      ? 'It had not started, so nothing was muted; the muting it planned will not happen.'
      : 'The notifications it muted are on again.'
  }\nNext: list_maintenance_windows to see what is still muted.`,
  structured: r,
});
