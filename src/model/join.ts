// A project's records joined once, by the rules (src/rules/): each open alert with its configuration, the window
// that mutes it, whom it pages (and a key that differs from the project's integration), its acknowledgement or
// the one that lapsed; each host with its state, each replica set or shard with its writability; the agents
// with their silence and their down alerts; each process with how far behind its goal it is. Records that
// contradict each other are kept both, and the contradiction listed: no fact here picks one in silence.
import type { Alert, AlertConfig, ApiEvent, Host } from '../api/client.js';
import {
  type Acknowledgement,
  acknowledgement,
  type Behind,
  behindGoal,
  dataAvailability,
  differentKey,
  type HostState,
  hostAddress,
  hostState,
  type KeyDifference,
  lapsedAck,
  type Muting,
  muting,
  noPrimaryAlert,
  type Page,
  paging,
  type Severity,
  severity,
  type Writability,
  writability,
} from '../rules/index.js';
import { type AgentReport, reconcileAgents } from './agents.js';
import type { ProjectRecords } from './project.js';

interface AlertFacts {
  alert: Alert;
  /** From a global alert configuration. */
  global: boolean;
  config?: AlertConfig;
  severity: Severity;
  dataAvailability: boolean;
  /** The window muting it now, or the next one that will. */
  muting?: Muting;
  pages: Page[];
  /** Paging notifications whose key differs from the project's integration of that type. */
  keyDifferences: KeyDifference[];
  acknowledgement?: Acknowledgement;
  /** The acknowledgement event of an acknowledgement that lapsed (the alert is open and unacknowledged). */
  lapsed?: ApiEvent;
}

export interface HostFacts {
  host: Host;
  state: HostState;
}

export interface SetFacts {
  /** The replica set's (or shard's) name. */
  name: string;
  members: HostFacts[];
  writability: Writability;
}

export type Contradiction =
  | { kind: 'host pings and is down'; host: string; lastPing: string; alertId?: string }
  | { kind: 'primary pings and there is no primary'; set: string; primary: string; alertId: string }
  | { kind: 'acknowledged and closed'; alertId: string; status: string; acknowledgedUntil: string };

interface ProjectFacts {
  alerts: AlertFacts[];
  hosts: HostFacts[];
  sets: SetFacts[];
  processes: Array<{
    process: NonNullable<ProjectRecords['automation']>['processes'][number];
    behind?: Behind;
  }>;
  agents?: AgentReport;
  contradictions: Contradiction[];
}

function alertFacts(r: ProjectRecords, now: Date): AlertFacts[] {
  const a = r.alerts;
  if (!a) return [];
  const global = new Set(a.globalAlertIds);
  const configs = new Map<string, AlertConfig>(
    [...a.configs, ...(a.globalConfigs as AlertConfig[])].map((c) => [c.id, c]),
  );
  const windows = r.windows ?? a.windows ?? [];
  const events = r.events?.events ?? [];
  return a.alerts.map((alert) => {
    const config = alert.alertConfigId ? configs.get(alert.alertConfigId) : undefined;
    const notifications = config?.notifications ?? [];
    const ack = acknowledgement(alert, now);
    const lapsed = lapsedAck(alert, events, now);
    const w = muting(alert.eventTypeName, windows, now);
    return {
      alert,
      global: global.has(alert.id),
      ...(config ? { config } : {}),
      severity: severity(alert.eventTypeName),
      dataAvailability: dataAvailability(alert.eventTypeName),
      ...(w ? { muting: w } : {}),
      pages: notifications.flatMap((n) => paging(n) ?? []),
      keyDifferences: notifications.flatMap((n) => differentKey(n, r.integrations ?? []) ?? []),
      ...(ack ? { acknowledgement: ack } : {}),
      ...(lapsed ? { lapsed } : {}),
    };
  });
}

function hostFacts(r: ProjectRecords, now: Date): { hosts: HostFacts[]; sets: SetFacts[] } {
  const open = r.alerts?.alerts ?? [];
  const hosts = (r.hosts ?? []).map((host) => ({ host, state: hostState(host, open, now) }));
  const bySet = new Map<string, HostFacts[]>();
  for (const h of hosts)
    if (h.host.replicaSetName)
      bySet.set(h.host.replicaSetName, [...(bySet.get(h.host.replicaSetName) ?? []), h]);
  const sets = [...bySet].map(([name, members]) => ({
    name,
    members,
    writability: writability(members, noPrimaryAlert(name, open)?.id),
  }));
  return { hosts, sets };
}

function contradictions(
  r: ProjectRecords,
  f: Pick<ProjectFacts, 'hosts' | 'sets'>,
  now: Date,
): Contradiction[] {
  const out: Contradiction[] = [];
  for (const h of f.hosts) {
    const c = h.state.contradiction;
    if (c)
      out.push({
        kind: 'host pings and is down',
        host: hostAddress(h.host),
        lastPing: c.lastPing,
        alertId: c.hostDownAlertId,
      });
  }
  for (const s of f.sets)
    if (s.writability.contradiction)
      out.push({
        kind: 'primary pings and there is no primary',
        set: s.name,
        primary: s.writability.contradiction.primary,
        alertId: s.writability.contradiction.noPrimaryAlertId,
      });
  for (const a of r.closed ?? [])
    if (acknowledgement(a, now))
      out.push({
        kind: 'acknowledged and closed',
        alertId: a.id,
        status: String(a.status),
        acknowledgedUntil: a.acknowledgedUntil!,
      });
  return out;
}

/** The project's records joined once; what was not read is empty (or undefined), never guessed. */
export function joinProject(r: ProjectRecords, now: Date): ProjectFacts {
  return { alerts: alertFacts(r, now), ...joinDeployment(r, now) };
}

/**
 * The join without each alert's own facts: hosts and sets, processes behind their goal, agents, contradictions.
 * Enough for a ranking across hundreds of projects, which groups the alerts by cause itself.
 */
export function joinDeployment(r: ProjectRecords, now: Date): Omit<ProjectFacts, 'alerts'> {
  const a = r.alerts;
  const s = r.automation;
  const publish = r.publishes?.[0];
  const facts = {
    ...hostFacts(r, now),
    processes: (s?.processes ?? []).map((process) => {
      const behind = behindGoal(process, s!.goalVersion, publish);
      return { process, ...(behind ? { behind } : {}) };
    }),
    ...(r.agents
      ? {
          agents: reconcileAgents({
            agents: r.agents,
            alerts: a?.alerts ?? [],
            globalAlertIds: a?.globalAlertIds,
            configs: a?.configs,
            globalConfigs: a?.globalConfigs,
            now,
          }),
        }
      : {}),
  };
  return { ...facts, contradictions: contradictions(r, facts, now) };
}
