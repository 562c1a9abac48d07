// An installation of N projects: the demo's four projects first, with their stories, then projects drawn
// from them — each a copy of one demo project (its hosts, agents, automation, alert configurations, alerts,
// windows, integrations and the story's events) under a name of its own, with host names of its own, so
// that "db-prod-06" still names one host and every id is unique. A real installation has hundreds of
// projects; this is how the bench and the tests get one (`dbops-mcp simulator --projects 500`).
// Copies are drawn after the demo's draws, so the demo's ids do not move; the same seed and N give the same
// installation.

import type { ProjectRec, StoreData, UserRec } from '../records.js';
import type { Build } from './gen.js';
import { DAY } from './gen.js';
import { DOMAIN } from './topology.js';

/** Teams the generated projects are named after, with their template's stage: `orders-prod`, … `orders-prod-2`. */
const TEAMS = [
  'orders',
  'billing',
  'catalog',
  'checkout',
  'identity',
  'inventory',
  'ledger',
  'loyalty',
  'media',
  'messaging',
  'notifications',
  'pricing',
  'profiles',
  'recommend',
  'reviews',
  'risk',
  'routing',
  'sessions',
  'shipping',
  'telemetry',
  'tickets',
  'wallet',
  'warehouse',
  'fraud',
  'geo',
];
/** The stage of each demo project a copy is drawn from (two are production: one says analytics). */
const STAGES = ['prod', 'staging', 'analytics', 'dev'];
const FIRST = ['Ana', 'Ben', 'Chloe', 'Dev', 'Elif', 'Finn', 'Grace', 'Hiro', 'Ines', 'Jon', 'Kofi', 'Lena'];
const LAST = ['Adler', 'Brandt', 'Costa', 'Diaz', 'Ekström', 'Fischer', 'Gupta', 'Haddad', 'Ito', 'Jensen'];

/** Event types of the ordinary hum (queries, publishes): a copy keeps only the last week of them. */
const HUM = new Set(['DATA_EXPLORER', 'DATA_EXPLORER_CRUD', 'AUTOMATION_CONFIG_PUBLISHED_AUDIT']);
const HUM_KEPT_MS = 7 * DAY;

/** The name of the n-th generated project (0-based), unique across the installation. */
function generatedName(n: number): string {
  const stage = STAGES[n % STAGES.length]!;
  const team = TEAMS[Math.floor(n / STAGES.length) % TEAMS.length]!;
  const round = Math.floor(n / (TEAMS.length * STAGES.length));
  return round === 0 ? `${team}-${stage}` : `${team}-${stage}-${round + 1}`;
}

const shortOf = (hostname: string) => hostname.replace(`.${DOMAIN}`, '');

/** `db-prod-04` of a copy named `orders-qa` is `db-orders-qa-04`: the kind and number stay, the project shows. */
function hostRename(short: string, project: string): string {
  const m = /^([a-z]+)-.*-(\d+)$/.exec(short);
  return m ? `${m[1]}-${project}-${m[2]}` : `${short}-${project}`;
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** What a copy of the template replaces: every id, host name and the project's name (longest first, once each). */
const replacing = (keys: Iterable<string>) =>
  new RegExp(
    [...keys]
      .sort((a, b) => b.length - a.length)
      .map(literal)
      .join('|'),
    'g',
  );

/** The template's records that belong to the project, as one JSON text (records are plain JSON). */
function recordsOf(data: StoreData, template: ProjectRec, now: number) {
  const mine = <T extends { groupId?: string }>(xs: T[]) => xs.filter((x) => x.groupId === template.id);
  return {
    hosts: mine(data.hosts),
    agents: mine(data.agents),
    automation: mine(data.automation),
    alertConfigs: mine(data.alertConfigs),
    alerts: mine(data.alerts),
    maintenanceWindows: mine(data.maintenanceWindows),
    integrations: mine(data.integrations),
    events: mine(data.events).filter(
      (e) => !HUM.has(e.eventTypeName) || now - Date.parse(e.created) <= HUM_KEPT_MS,
    ),
  };
}

type Copied = ReturnType<typeof recordsOf>;

/** The names a copy renames: ids of its records (fresh ones), its hosts' names, the project's name. */
function renames(b: Build, records: Copied, template: ProjectRec, project: ProjectRec): Map<string, string> {
  const map = new Map<string, string>([[template.id, project.id]]);
  const fresh = (id: string | undefined, make: () => string) => {
    if (id !== undefined && !map.has(id)) map.set(id, make());
  };
  for (const h of records.hosts) {
    fresh(h.id, () => b.r.hex(h.id.length));
    fresh(h.clusterId, () => b.r.id());
    const short = shortOf(h.hostname);
    map.set(short, hostRename(short, project.name));
  }
  for (const xs of [records.alertConfigs, records.alerts, records.maintenanceWindows, records.events])
    for (const x of xs) fresh(x.id, () => b.r.id());
  map.set(template.name, project.name);
  return map;
}

/** One person per generated project, its owner (hashes shared: scrypt per person would slow every start). */
function ownerOf(b: Build, project: ProjectRec, n: number, passwordHash: string): UserRec {
  const firstName = FIRST[n % FIRST.length]!;
  const lastName = LAST[Math.floor(n / FIRST.length) % LAST.length]!;
  const username = `${firstName}.${lastName}.${project.name}@example.com`.toLowerCase();
  return {
    id: b.r.id(),
    username,
    passwordHash,
    emailAddress: username,
    firstName,
    lastName,
    roles: [{ groupId: project.id, roleName: 'GROUP_OWNER' }],
    pendingRoles: [],
    teamIds: [],
    accessList: [],
    created: project.created,
  };
}

/**
 * Grows the demo to `total` projects: project 5 copies payments-prod, 6 search-staging, and so on round the
 * four. Each copy is the template's records with fresh ids, its own host names and its own name.
 */
export function growInstallation(b: Build, total: number): void {
  const { data } = b;
  const templates = data.projects.slice();
  const demoUsers = data.users.slice();
  const passwordHash = demoUsers[0]?.passwordHash ?? '';
  const now = b.now.getTime();
  const byTemplate = new Map(
    templates.map((t) => {
      const records = recordsOf(data, t, now);
      return [t.id, { records, text: JSON.stringify(records) }];
    }),
  );
  const patterns = new Map<string, RegExp>();
  for (let n = 0; templates.length + n < total; n++) {
    const template = templates[n % templates.length]!;
    const project: ProjectRec = {
      id: b.r.id(),
      name: generatedName(n),
      orgId: template.orgId,
      created: b.at(-(390 - (n % 300)) * DAY),
      tags: template.tags,
    };
    const { records, text } = byTemplate.get(template.id)!;
    const map = renames(b, records, template, project);
    // The template's names are the same for every copy of it: one pattern per template.
    const pattern = patterns.get(template.id) ?? replacing(map.keys());
    patterns.set(template.id, pattern);
    const copy = JSON.parse(text.replace(pattern, (k) => map.get(k) ?? k)) as Copied;
    data.projects.push(project);
    data.hosts.push(...copy.hosts);
    data.agents.push(...copy.agents);
    data.automation.push(...copy.automation);
    data.alertConfigs.push(...copy.alertConfigs);
    data.alerts.push(...copy.alerts);
    data.maintenanceWindows.push(...copy.maintenanceWindows);
    data.integrations.push(...copy.integrations);
    data.events.push(...copy.events);
    data.users.push(ownerOf(b, project, n, passwordHash));
  }
  // Recorded in time order, as the demo's are (a stable sort keeps each second's recorded order).
  data.events.sort((x, y) => Date.parse(x.created) - Date.parse(y.created));
  data.demo.projectIds = data.projects.map((p) => p.id);
}
