// An agent silent past its threshold: not heard from for longer than its agent-down alert configuration says
// (the project's, else a global one; the smallest enabled threshold), or the platform's default. The spec gives
// lastPing for monitoring agents only; backup and automation agents are judged by lastConf.
import type { AgentType } from '../vocabulary/index.js';
import { agentTypeOfAlert } from './alerts.js';

/** The platform's default threshold of an agent-down alert, where no configuration says otherwise. */
const DEFAULT_SILENCE_MIN = 10;
const MINUTE = 60_000;

interface ThresholdConfig {
  enabled?: boolean;
  eventTypeName?: string;
  threshold?: { threshold?: number; units?: string };
}

/** A threshold in minutes from an agent-down configuration ("> 10 MINUTES"), if it states one. */
export function thresholdMin(c: ThresholdConfig): number | undefined {
  const t = c.threshold;
  if (!t || typeof t.threshold !== 'number' || !(t.threshold > 0)) return undefined;
  const unit = String(t.units ?? 'MINUTES').toUpperCase();
  const factor = unit.startsWith('HOUR')
    ? 60
    : unit.startsWith('SECOND')
      ? 1 / 60
      : unit.startsWith('DAY')
        ? 1440
        : 1;
  return t.threshold * factor;
}

export interface SilenceThreshold {
  minutes: number;
  from: 'configuration' | 'default';
}

/** The threshold an agent type is judged by, from the enabled agent-down configurations given. */
export function silenceThreshold(type: AgentType, configs: readonly ThresholdConfig[]): SilenceThreshold {
  const configured = configs
    .filter((c) => c.enabled !== false && agentTypeOfAlert(c.eventTypeName) === type)
    .map(thresholdMin)
    .filter((m): m is number => m !== undefined);
  return configured.length
    ? { minutes: Math.min(...configured), from: 'configuration' }
    : { minutes: DEFAULT_SILENCE_MIN, from: 'default' };
}

export interface Heard {
  /** When the agent was last heard from. */
  lastSeen?: string;
  /** Which field lastSeen is. */
  seenBy: 'lastPing' | 'lastConf';
}

export function lastHeard(type: AgentType, agent: { lastPing?: string; lastConf?: string }): Heard {
  return type === 'MONITORING' && agent.lastPing
    ? { lastSeen: agent.lastPing, seenBy: 'lastPing' }
    : { lastSeen: agent.lastConf, seenBy: 'lastConf' };
}

/** Not heard from for longer than the threshold (an agent never heard from is not judged). */
export function agentSilent(lastSeen: string | undefined, thresholdMinutes: number, now: Date): boolean {
  const seen = Date.parse(lastSeen ?? '');
  return Number.isFinite(seen) && now.getTime() - seen > thresholdMinutes * MINUTE;
}

/**
 * Whether a type's work is still done: one of its agents ACTIVE and not silent. Monitoring and backup run one
 * active agent per project, the others stand by; a silent standby leaves no one to take over, a silent active
 * agent (with none other heard) leaves the work undone — for monitoring, host and metric alerts may not fire.
 */
export const stillDone = (
  checks: ReadonlyArray<{ agent: { stateName?: string }; silent: boolean }>,
): boolean => checks.some((c) => c.agent.stateName === 'ACTIVE' && !c.silent);
