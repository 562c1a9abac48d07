// How a maintenance window looks to a person: its state (upcoming, active, ended) and its fields.
import type { MaintenanceWindow } from '../../api/types.js';
import { cell } from '../../untrusted.js';
import type { ListView } from '../answers.js';
import { when } from '../markdown.js';

export function windowState(w: MaintenanceWindow, now: Date): string {
  const t = now.getTime();
  if (w.endDate && Date.parse(w.endDate) <= t) return 'ended';
  if (w.startDate && Date.parse(w.startDate) > t) return 'upcoming';
  return 'active';
}

export function windowPairs(w: MaintenanceWindow, now: Date): Array<[string, unknown]> {
  return [
    ['State', windowState(w, now)],
    ['Starts', when(w.startDate, now)],
    ['Ends', when(w.endDate, now)],
    ['Mutes', w.alertTypeNames],
    ['Description', w.description],
  ];
}

/** The window as a preview shows it before a change. */
export function windowCurrent(w: MaintenanceWindow, now: Date): Record<string, unknown> {
  return {
    state: windowState(w, now),
    startDate: w.startDate,
    endDate: w.endDate,
    alertTypeNames: (w.alertTypeNames ?? []).join(', '),
    description: w.description,
  };
}

export const windowList: ListView<MaintenanceWindow> = {
  columns: ['windowId', 'state', 'start', 'end', 'alert types', 'description'],
  row: (w: MaintenanceWindow, now: Date) => [
    w.id,
    windowState(w, now),
    when(w.startDate, now),
    when(w.endDate, now),
    (w.alertTypeNames ?? []).join(', '),
    w.description,
  ],
};

/** The windows in force next to a triage: which, until when, what they mute. */
export const windowInForceList: ListView<MaintenanceWindow> = {
  columns: ['windowId', 'ends', 'mutes', 'description'],
  row: (w, now) => [w.id, when(w.endDate, now), (w.alertTypeNames ?? []).join(', '), w.description],
};

/** What each alert type a window mutes covers, in words (alert types are categories of event types). */
export const TYPE_COVERS: Record<string, string> = {
  HOST: 'every host alert: host down (HOST_DOWN) and every host metric — CPU, memory, connections, asserts, replication lag, query targeting, disk space on every partition',
  REPLICA_SET: 'every replica set alert: no primary, elections, oplog window, resync required, member state',
  CLUSTER: 'every sharded cluster alert: shards, balancer, mongos',
  AGENT: 'every agent alert: monitoring, automation and backup agents down',
  BACKUP: 'every backup alert: backup agent down, snapshots, oplog behind',
};

/** A window as a muting answer names it: by its description (a person's words), else by its id. */
export function windowName(w: Pick<MaintenanceWindow, 'id' | 'description'>): string {
  const d = cell(w.description, 80);
  return d === '—' ? `window ${w.id ?? '?'}` : `"${d}"`;
}

/**
 * "muted by "Patch rs-ledger" (window mutes HOST project-wide)": which window and why it applies — windows
 * mute alert types for the whole project, whatever their description names.
 */
export function mutedBy(w: Pick<MaintenanceWindow, 'id' | 'description' | 'alertTypeNames'>): string {
  const types = (w.alertTypeNames ?? []).join(', ') || 'its alert types';
  return `muted by ${windowName(w)} (window mutes ${types} project-wide)`;
}

/** A configuration a window would silence: its words, the paging services it notifies, where it is open now. */
export interface Silenced {
  label: string;
  pages: string[];
  /** Where its open alerts are (hosts, replica sets): they go quiet too. */
  open: string[];
}

const MAX_LISTED = 8;

/** One line per configuration: "`Connections > 4000` — pages via PagerDuty — open on `db-1:27017`, …". */
function silencedLine(x: Silenced): string {
  const where = x.open.slice(0, 3).map((w) => `\`${cell(w, 60).replace(/`/g, "'")}\``);
  const more = x.open.length > 3 ? ` and ${x.open.length - 3} more` : '';
  return [
    `\`${cell(x.label, 100).replace(/`/g, "'")}\``,
    ...(x.pages.length ? [`pages via ${x.pages.join(', ')}`] : []),
    ...(x.open.length ? [`${x.open.length} open: ${where.join(', ')}${more}`] : []),
  ].join(' — ');
}

/**
 * The notes of a window preview (outside the data fence, so every platform text in them is sanitized and
 * code-quoted): what goes quiet by name, paging first; that it is project-wide; what its types cover (HOST
 * cannot be narrowed to disk alerts).
 */
export function silenceNotes(s: {
  project: string;
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
      `⚠ Pages go quiet: ${paging.length} paging configuration${paging.length === 1 ? '' : 's'} (${open(paging)} open alert${open(paging) === 1 ? '' : 's'}) notify nobody while the window is in force.`,
    );
  notes.push(
    `Project-wide: a maintenance window has no hosts, so it mutes ${s.types.join(', ')} alerts on every host of project ${s.project}, whatever its description names.`,
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
  if (s.from && s.to)
    notes.push(
      `Notifications for ${s.types.join(', ')} alerts are muted from ${s.from} to ${s.to}; alerts still open, but nobody is told.`,
    );
  return notes;
}
