// What happens to a project's open alerts, joined by the rules (src/rules: paging, differentKey, lapsedAck) from
// the records beyond the alerts: the project's integrations (a notification's key against them) and its
// acknowledgement and integration-change events (lapsed acknowledgements; who replaced a key, when). Two reads
// per project; either may be refused (an integration list needs an owner's rights), and then the answer says
// less, never something false.
import type { Alert, AlertConfig, ApiClient, ApiEvent, Integration } from '../api/client.js';
import { ACKNOWLEDGED, differentKey, lapsedAck, type Page, paging, UNACKNOWLEDGED } from '../rules/index.js';
import { PAGING_NOTIFICATION_TYPES, specIntegrationType } from '../vocabulary/index.js';

const INTEGRATION_UPDATED = 'INTEGRATION_UPDATED';

/** The records beyond the alerts that say what happens to them; null where the platform refused a read. */
export interface FateRecords {
  integrations: Integration[] | null;
  events: ApiEvent[] | null;
}

/** A notification carrying a different key from the project's integration of its type. */
export interface KeyFlag {
  /** PagerDuty, OpsGenie… or the integration type when it is not a pager. */
  service: string;
  integrationType: string;
  /** The newest change of that integration the events record: when and by whom. */
  replaced?: { at?: string; by?: string };
}

/** What the configurations of a cause do with its alerts, and what the events say about them. */
export interface AlertFate {
  /** Pages of the configurations, once each (service and whom an SMS reaches). */
  pages: Page[];
  /** The other notification types (EMAIL, WEBHOOK…), once each. */
  notifies: string[];
  keyFlags: KeyFlag[];
  /** An alert's lapsed acknowledgement: the acknowledgement event of an alert open and unacknowledged now. */
  lapsed: Record<string, ApiEvent>;
}

/** The project's integrations and its acknowledgement and integration events (the newest 500). */
export async function loadFateRecords(
  api: ApiClient,
  projectId: string,
  signal?: AbortSignal,
): Promise<FateRecords> {
  // Either read may be refused or missing on a server: the answer then says less, the call does not fail.
  const tried = <T>(read: () => Promise<{ results: T[] }>) =>
    Promise.resolve()
      .then(read)
      .then((r) => r.results)
      .catch(() => null);
  const [integrations, events] = await Promise.all([
    tried(() => api.integrations.list(projectId, { signal })),
    tried(() =>
      api.events.listForProject(
        projectId,
        { eventType: [ACKNOWLEDGED, UNACKNOWLEDGED, INTEGRATION_UPDATED], itemsPerPage: 500 },
        { signal },
      ),
    ),
  ]);
  return { integrations, events };
}

// A project's events by alert, once per list read (a kept read is one shared array): each alert's lapsed
// acknowledgement looked through every event of the project, for every cause of every project.
const indexed = new WeakMap<readonly ApiEvent[], Map<string, ApiEvent[]>>();

function eventsByAlert(events: readonly ApiEvent[]): Map<string, ApiEvent[]> {
  let m = indexed.get(events);
  if (!m) {
    m = new Map();
    for (const e of events) {
      if (!e.alertId) continue;
      const own = m.get(e.alertId);
      if (own) own.push(e);
      else m.set(e.alertId, [e]);
    }
    indexed.set(events, m);
  }
  return m;
}

/** One page per service and person. */
const pageKey = (p: Page) => JSON.stringify([p.service, p.to ?? {}]);

const newest = (a: ApiEvent, b: ApiEvent) =>
  (Date.parse(b.created ?? '') || 0) - (Date.parse(a.created ?? '') || 0);

/** Who last replaced the integration of this type, and when, where the events say. */
function replaced(events: readonly ApiEvent[], integrationType: string): KeyFlag['replaced'] {
  const e = events
    .filter(
      (x) =>
        x.eventTypeName === INTEGRATION_UPDATED &&
        specIntegrationType(String(x.integrationType ?? '')) === integrationType,
    )
    .sort(newest)[0];
  return e
    ? { ...(e.created ? { at: e.created } : {}), ...(e.username ? { by: e.username } : {}) }
    : undefined;
}

/**
 * A cause's fate: the pages and other notifications of its configurations, their notifications whose key
 * differs from the project's integration (project configurations only: a global one belongs to no
 * project), and which of its alerts' acknowledgements lapsed.
 */
export function fateOf(
  configs: readonly AlertConfig[],
  alerts: readonly Alert[],
  records: FateRecords,
  now: Date,
  global: boolean,
): AlertFate {
  const pages: Page[] = [];
  const notifies: string[] = [];
  const keyFlags: KeyFlag[] = [];
  for (const c of configs)
    for (const n of c.notifications ?? []) {
      const p = paging(n);
      if (p && !pages.some((x) => pageKey(x) === pageKey(p))) pages.push(p);
      const type = String(n.typeName ?? '?');
      if (!p && !notifies.includes(type)) notifies.push(type);
      const d = global ? undefined : differentKey(n, records.integrations ?? []);
      if (d && !keyFlags.some((k) => k.integrationType === d.integrationType)) {
        const service = PAGING_NOTIFICATION_TYPES[d.integrationType] ?? d.integrationType;
        const when = replaced(records.events ?? [], d.integrationType);
        keyFlags.push({ service, integrationType: d.integrationType, ...(when ? { replaced: when } : {}) });
      }
    }
  const lapsed: Record<string, ApiEvent> = {};
  const byAlert = eventsByAlert(records.events ?? []);
  for (const a of alerts) {
    const e = lapsedAck(a, byAlert.get(a.id) ?? [], now);
    if (e) lapsed[a.id] = e;
  }
  return { pages, notifies, keyFlags, lapsed };
}
