// The shape of the demo's world state (world.ts holds the one world; docs/demo-world.md tells its story). Times
// are offsets from "now" in milliseconds (negative: ago).

import type { AgentState } from '../../vocabulary/index.js';

/** A host by its short name (`db-prod-04`); the domain is added when records are built. */
export type Host = string;
export type Person = string;

interface AgentSpec {
  type: 'MONITORING' | 'BACKUP';
  host: Host;
  state: AgentState;
}

/** An alert configuration of a project, or (project absent) a global one, by its event and metric. */
export interface ConfigRef {
  project?: string;
  event: string;
  metric?: string;
}

/** A configuration publish that moves some processes to a new goal version. */
interface Deployment {
  project: string;
  at: number;
  by: Person;
  /** The goal version it published (the project's current goal when it is the latest). */
  goalVersion: number;
  change: { display: string; param: string; old: string; new: string };
  /** The processes it touches (by host) and those that have reached the goal. */
  hosts: Host[];
  done: Host[];
  /** The plan of the processes still on their way. */
  plan: string[];
  /** A process that failed to start: since when, and the error it reports. */
  fails?: { host: Host; at: number; code: number; human: string; error: string };
}

/** A mongod unreachable from `from` (to `to`, or still): the machine (agents quiet too) or only the process. */
interface Outage {
  host: Host;
  from: number;
  to?: number;
  machine: boolean;
  why: string;
}

/** An agent that stopped reporting from `from` (to `to`, or still). */
interface Silence {
  project: string;
  type: 'MONITORING' | 'BACKUP';
  host: Host;
  from: number;
  to?: number;
  why: string;
}

/** A measured value over its threshold from `since` (to `until`, or still); `cancelled` ended by a change. */
export interface Reading {
  host: Host;
  /** A metric name, or OPLOG_WINDOW (the replication oplog window, HOURS). */
  metric: string;
  value: number;
  units: string;
  since: number;
  until?: number;
  cancelled?: boolean;
}

interface ThresholdChange {
  config: ConfigRef;
  by: Person;
  at: number;
  from: number;
  to: number;
}

interface ConfigToggle {
  config: ConfigRef;
  by: Person;
  at: number;
  enabled: boolean;
}

/** A paging key replaced in the integration at `at`; the `stale` configurations' notifications keep the old one. */
interface KeyRotation {
  project: string;
  integration: string;
  by: Person;
  at: number;
  stale: ConfigRef[];
}

interface WindowSpec {
  project: string;
  start: number;
  end: number;
  alertTypeNames: string[];
  description?: string;
  by: Person;
}

interface Ack {
  config: ConfigRef;
  host: Host;
  by: Person;
  at: number;
  until: number;
  comment: string;
}

/** A project role offered to a person who has not accepted it yet (people.ts holds it as pending). */
interface Invitation {
  project: string;
  person: Person;
  role: string;
  by: Person;
  at: number;
}

export interface World {
  agents: Record<string, AgentSpec[]>;
  /** Automation agents run on every host, ACTIVE unless named here. */
  automationAgents: Record<Host, AgentState>;
  deployments: Deployment[];
  outages: Outage[];
  silences: Silence[];
  readings: Reading[];
  thresholdChanges: ThresholdChange[];
  toggles: ConfigToggle[];
  rotations: KeyRotation[];
  windows: WindowSpec[];
  acks: Ack[];
  invitations: Invitation[];
}
