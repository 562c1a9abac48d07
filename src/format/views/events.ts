// How an event looks to a person: when, what, who caused it and what it is about (a data operation too).
import type { ApiEvent, Page, PageQuery } from '../../api/types.js';
import { isConfigChange } from '../../rules/index.js';
import {
  type FormatContext,
  idsOnly,
  type ListView,
  listAnswer,
  type NameBook,
  recordAnswer,
  type ToolAnswer,
} from '../answers.js';
import { stamp, utc, when } from '../markdown.js';
import { redact } from '../redact.js';

/** Who caused it: a person's username, or an API key's public key. */
export const eventColumns = ['eventId', utc('time'), 'type', 'who', 'target', 'what changed', 'alertId'];

/**
 * Names of what events are about, learned for one answer: an alert configuration by its condition in words, a
 * maintenance window by its description (while it can still be read).
 */
export interface EventTargets {
  config(id: string): string | undefined;
  window(id: string): string | undefined;
}

export const noTargets: EventTargets = { config: () => undefined, window: () => undefined };

export function eventRow(
  e: ApiEvent,
  now: Date,
  names: NameBook = idsOnly,
  targets: EventTargets = noTargets,
): unknown[] {
  return [
    e.id,
    stamp(e.created, now),
    e.eventTypeName,
    eventWho(e, names),
    eventTarget(e, targets),
    whatChanged(e),
    e.alertId,
  ];
}

/** What a change event's type says changed, as before → after (the platform records no diff for these). */
const IMPLIED: Record<string, string> = {
  ALERT_CONFIG_ENABLED_AUDIT: 'enabled: no → yes',
  ALERT_CONFIG_DISABLED_AUDIT: 'enabled: yes → no',
  ALERT_CONFIG_ADDED_AUDIT: 'configuration added',
  ALERT_CONFIG_DELETED_AUDIT: 'configuration deleted',
  MAINTENANCE_WINDOW_ADDED_AUDIT: 'window added',
  MAINTENANCE_WINDOW_DELETED_AUDIT: 'window deleted',
  ALERT_ACKNOWLEDGED_AUDIT: 'acknowledged',
  ALERT_UNACKNOWLEDGED_AUDIT: 'acknowledgement removed',
};

/** The diffs an event carries on one line, or what its type says changed ("" when neither says more). */
export const whatChanged = (e: ApiEvent) =>
  e.diffs?.length ? changeSummary(e) : (IMPLIED[e.eventTypeName ?? ''] ?? '');

export function eventWho(e: ApiEvent, names: NameBook = idsOnly): string | undefined {
  if (e.username) return e.username;
  if (!e.publicKey) return undefined;
  const key = names.key(e.publicKey);
  return key.startsWith('key ') ? key : `key ${key}`;
}

/**
 * What it is about: a data operation, a host, a user or key it targeted, an alert configuration (by its
 * condition) or maintenance window (by its description) a change was made to, a replica set or cluster.
 */
export function eventTarget(e: ApiEvent, targets: EventTargets = noTargets): string | undefined {
  const port = e.port ?? e.Port;
  const r = e as Record<string, unknown>;
  if (e.hostname) return port !== undefined ? `${e.hostname}:${port}` : e.hostname;
  const type = e.eventTypeName ?? '';
  if (isConfigChange(type) && e.alertConfigId) {
    const c = targets.config(e.alertConfigId);
    return c ? `configuration "${c}"` : `configuration ${e.alertConfigId}`;
  }
  const windowId = typeof r.maintenanceWindowId === 'string' ? r.maintenanceWindowId : undefined;
  if (windowId) {
    const w = targets.window(windowId);
    return w !== undefined ? `window "${w}"` : `window ${windowId} (ended or deleted: no longer readable)`;
  }
  return (
    dataOperation(e) ??
    (r.targetUsername as string | undefined) ??
    (r.targetPublicKey ? `key ${r.targetPublicKey}` : undefined) ??
    (r.replicaSetName as string | undefined) ??
    (r.clusterName as string | undefined) ??
    e.hostId
  );
}

/** "DELETE on payments.ledger" for an event that records a data operation. */
function dataOperation(e: ApiEvent): string | undefined {
  const r = e as Record<string, unknown>;
  if (typeof r.opType !== 'string') return undefined;
  const ns = [r.database, r.collection].filter((x) => typeof x === 'string' && x).join('.');
  return `${r.opType}${ns ? ` on ${ns}` : ''}`;
}

/** "MODIFIED PROCESS rs-payments_1 (processes.version: 7.0.12 → 7.0.14)", the parts that fit one line. */
export function changeSummary(e: ApiEvent): string {
  const r = e as Record<string, unknown>;
  // Diffs that made the same change to several things are one: "MODIFIED PROCESS a, b, c (version: 1 → 2)".
  const same = new Map<string, string[]>();
  for (const d of e.diffs ?? []) {
    const params = (d.params ?? []).map(
      (p) => `${p.param ?? p.display ?? '?'}: ${p.old ?? '∅'} → ${p.new ?? '∅'}`,
    );
    const key = `${d.status ?? ''} ${d.type ?? ''}\u0000${params.join('; ')}`;
    const name = String(d.name ?? d.id ?? '');
    const names = same.get(key) ?? [];
    // The same thing changed twice the same way is one change.
    if (!names.includes(name)) same.set(key, [...names, name]);
  }
  const diffs = [...same].map(([key, names]) => {
    const [kind, params] = key.split('\u0000');
    return `${kind} ${names.join(', ')}${params ? ` (${params})` : ''}`.replace(/\s+/g, ' ').trim();
  });
  const about = [
    r.targetUsername && `user ${r.targetUsername}`,
    r.targetPublicKey && `key ${r.targetPublicKey}`,
    r.maintenanceWindowId && `window ${r.maintenanceWindowId}`,
    e.alertConfigId && `alertConfigId ${e.alertConfigId}`,
  ].filter(Boolean);
  return [dataOperation(e), ...diffs, ...about].filter(Boolean).join('; ');
}

const eventList = (targets: EventTargets = noTargets): ListView<ApiEvent> => ({
  columns: eventColumns,
  row: (e: ApiEvent, now: Date, names: NameBook) => eventRow(e, now, names, targets),
});

/** Events newest first, whatever order the platform sent. */
export const newestFirst = (p: Page<ApiEvent>): Page<ApiEvent> => ({
  ...p,
  results: [...p.results].sort(
    (a, b) => (Date.parse(b.created ?? '') || 0) - (Date.parse(a.created ?? '') || 0),
  ),
});

/** A page of events, with how many a who/target search read and whether older ones were left unread. */
export function eventsAnswer(
  result: Page<ApiEvent> & {
    searched?: { read: number; of: number };
    targets?: EventTargets;
    /** Host names near a target that matched nothing (a typo of a host's name). */
    near?: string[];
  },
  q: Required<PageQuery>,
  title: string,
  next: string,
  f: FormatContext,
): ToolAnswer {
  const { searched: s, targets, near, ...page } = result;
  const answer = listAnswer(
    newestFirst(page),
    q,
    {
      title,
      ...eventList(targets),
      next,
      empty: 'No events match. Widen minDate/maxDate or drop a filter.',
    },
    f,
  );
  if (s) {
    const note = `Matched who/target over the ${s.read} newest of ${s.of} events${s.read < s.of ? `; older ones were not read: narrow with minDate/maxDate or eventType` : ''}.`;
    answer.text += `\n${note}`;
    answer.structured.searched = { ...s, note };
  }
  if (near?.length) {
    answer.text += `\nNo host of the project is named so either; near names: ${near.join(', ')}.`;
    answer.structured.near = near;
  }
  return answer;
}

/** One recorded change: "MODIFIED ALERT_CONFIG disk (threshold: 80 → 90)". */
function diffLine(d: NonNullable<ApiEvent['diffs']>[number]): string {
  const params = (d.params ?? []).map(
    (p) => `${p.param ?? p.display ?? '?'}: ${p.old ?? '∅'} → ${p.new ?? '∅'}`,
  );
  return `${d.status ?? ''} ${d.type ?? ''} ${d.name ?? d.id ?? ''}${params.length ? ` (${params.join('; ')})` : ''}`.trim();
}

/** One event in full: who, from where, its target and the changes it recorded; its raw document if asked. */
export function eventAnswer(
  e: ApiEvent,
  targets: EventTargets,
  args: { eventId: string; includeRaw?: boolean },
  f: FormatContext,
): ToolAnswer {
  const answer = recordAnswer(
    `Event ${args.eventId}`,
    e,
    (s) => [
      ['Time', when(s.created, f.now)],
      ['Type', s.eventTypeName],
      ['Who', eventWho(s, f.names)],
      ['From address', s.remoteAddress],
      ['Data operation', dataOperation(s)],
      ['Target', dataOperation(s) ? undefined : eventTarget(s, targets)],
      ['Alert', s.alertId],
      ['Alert configuration', s.alertConfigId],
      [
        'Metric',
        s.metricName && `${s.metricName} = ${s.currentValue?.number ?? '?'} ${s.currentValue?.units ?? ''}`,
      ],
      ['Changes', s.diffs?.length ? s.diffs.map(diffLine) : whatChanged(s) || undefined],
    ],
    f,
    e.alertId ? `get_alert_config with alertConfigId=${e.alertConfigId ?? '?'}` : undefined,
  );
  if (!f.detailed && args.includeRaw && e.raw !== undefined)
    answer.text += `\n### Raw document\n${f.fence.wrap(JSON.stringify(redact(e.raw), null, 1))}`;
  return answer;
}
