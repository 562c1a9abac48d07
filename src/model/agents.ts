// One truth about agents: the agent lists of a project reconciled with its open agent-down alerts (the
// project's and the global configurations'), and an agent flagged silent when it has not been heard from for
// longer than its alert threshold — even when no alert is open. The spec gives `lastPing` for monitoring agents
// only; backup and automation agents are judged by `lastConf`.

import { mapBounded } from '../api/bounded.js';
import type { Agent, Alert, AlertConfig, ApiClient, GlobalAlertConfig } from '../api/client.js';
import { fetchAll } from '../api/paging.js';
import {
  agentSilent,
  agentTypeOfAlert,
  hostMatches,
  isOpen,
  lastHeard,
  type SilenceThreshold,
  silenceThreshold,
} from '../rules/index.js';
import { AGENT_TYPES, type AgentType } from '../vocabulary/index.js';

const MAX_AGENTS = 2_000;

interface AgentDownAlert {
  alert: Alert;
  global: boolean;
}

export interface AgentCheck {
  type: AgentType;
  agent: Agent;
  /** When the agent was last heard from: lastPing (monitoring), else lastConf. */
  lastSeen?: string;
  /** Which field lastSeen is. */
  seenBy: 'lastPing' | 'lastConf';
  thresholdMin: number;
  /** Not heard from for longer than the threshold. */
  silent: boolean;
  /** Open agent-down alerts on this agent's host. */
  alerts: AgentDownAlert[];
}

/** Silent past its threshold or with an open agent-down alert: what list_agents' `silent: true` keeps. */
export const inTrouble = (c: AgentCheck): boolean => c.silent || c.alerts.length > 0;

export interface AgentReport {
  /** Types read, with their agents checked. */
  checks: AgentCheck[];
  typesRead: AgentType[];
  /** Open agent-down alerts on a host with no listed agent of that type (or of a type not read). */
  unmatched: AgentDownAlert[];
  /** Every open agent-down alert of the types read. */
  downAlerts: AgentDownAlert[];
  thresholds: Partial<Record<AgentType, SilenceThreshold>>;
}

/** A project's agents of the given types (all three when none is given). */
export async function loadAgents(
  api: ApiClient,
  projectId: string,
  types: readonly AgentType[] = AGENT_TYPES,
  signal?: AbortSignal,
): Promise<Partial<Record<AgentType, Agent[]>>> {
  // One fan-out: the caller's signal carries one listener for the three lists, not one each.
  const lists = await mapBounded(types, types.length, signal, (t, inner) =>
    fetchAll((q) => api.agents.list(projectId, t, q, { signal: inner }), {
      signal: inner,
      maxItems: MAX_AGENTS,
    }),
  );
  return Object.fromEntries(types.map((t, i) => [t, lists[i]!.items]));
}

interface ReconcileInput {
  agents: Partial<Record<AgentType, Agent[]>>;
  /** The project's open alerts (project and global configurations). */
  alerts: Alert[];
  globalAlertIds?: string[];
  configs?: AlertConfig[];
  globalConfigs?: GlobalAlertConfig[];
  now: Date;
}

export function reconcileAgents(i: ReconcileInput): AgentReport {
  const global = new Set(i.globalAlertIds ?? []);
  const types = AGENT_TYPES.filter((t) => i.agents[t] !== undefined);
  const thresholds: AgentReport['thresholds'] = {};
  for (const t of types) {
    // The project's own configuration first, then a global one; the smallest enabled threshold applies.
    thresholds[t] = silenceThreshold(t, [
      ...(i.configs ?? []),
      ...((i.globalConfigs ?? []) as AlertConfig[]),
    ]);
  }
  const downAlerts: AgentDownAlert[] = i.alerts
    .filter(isOpen)
    .filter((a) => {
      const t = agentTypeOfAlert(a.eventTypeName);
      return t !== undefined && types.includes(t);
    })
    .map((alert) => ({ alert, global: global.has(alert.id) }));
  const matched = new Set<AgentDownAlert>();
  const checks: AgentCheck[] = types.flatMap((type) =>
    (i.agents[type] ?? []).map((agent) => {
      const { lastSeen, seenBy } = lastHeard(type, agent);
      const minutes = thresholds[type]!.minutes;
      const alerts = downAlerts.filter(
        (d) =>
          agentTypeOfAlert(d.alert.eventTypeName) === type &&
          hostMatches(d.alert.hostnameAndPort ?? '', { hostname: agent.hostname }),
      );
      for (const d of alerts) matched.add(d);
      return {
        type,
        agent,
        lastSeen,
        seenBy,
        thresholdMin: minutes,
        silent: agentSilent(lastSeen, minutes, i.now),
        alerts,
      } satisfies AgentCheck;
    }),
  );
  return {
    checks,
    typesRead: types,
    unmatched: downAlerts.filter((d) => !matched.has(d)),
    downAlerts,
    thresholds,
  };
}
