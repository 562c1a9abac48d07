// What comes first. Causes by urgency (the incident timeline and the server's cut of its copy): open before
// dealt with, unmuted before muted, critical before warning, newest first. Projects by tier (the installation's
// triage): the worst of their causes, failing automation, silent agents.
import { isCritical } from './alerts.js';

export interface CauseFacts {
  /** Some alert of it is neither acknowledged nor, with none listed, counted so. */
  open: boolean;
  /** A window in force mutes it. */
  muted: boolean;
  eventTypeName?: string;
  /** Its newest alert's start (ms). */
  newest: number;
}

const urgencyKey = (c: CauseFacts): number[] => [
  c.open ? 0 : 1,
  c.muted ? 1 : 0,
  isCritical(c.eventTypeName) ? 0 : 1,
  -c.newest,
];

/** Most urgent first: open, unmuted, data availability (critical), the newest. */
export function byUrgency(x: CauseFacts, y: CauseFacts): number {
  const [a, b] = [urgencyKey(x), urgencyKey(y)];
  return a.map((n, i) => n - b[i]!).find((d) => d !== 0) ?? 0;
}

/** How urgent a project (or a cause) is now, most urgent first: the order of the tiers is the order of this list. */
export const TIERS = [
  'unmuted data availability',
  'unmuted paging',
  'unmuted alerts',
  'muted or acknowledged',
  'informational',
  'quiet',
] as const;
export type Tier = (typeof TIERS)[number];

export const tierRank = (t: Tier): number => TIERS.indexOf(t);

interface CauseTierFacts {
  /** Every alert is TRACKING (not yet past its delay). */
  tracking: boolean;
  /** Alerts not acknowledged and not muted by a window in force. */
  loud: number;
  dataAvailability: boolean;
  paging: boolean;
}

export function causeTier(c: CauseTierFacts): Tier {
  if (c.tracking) return 'informational';
  if (c.loud === 0) return 'muted or acknowledged';
  if (c.dataAvailability) return 'unmuted data availability';
  if (c.paging) return 'unmuted paging';
  return 'unmuted alerts';
}

/**
 * A project's tier: its worst cause's, or worse — failing automation is data availability (a process that will
 * not start serves nothing), a silent agent is an unmuted alert, a process behind its goal is informational.
 */
export function projectTier(
  causes: readonly Tier[],
  o: { failing: boolean; silentAgent: boolean; behind: boolean },
): Tier {
  const tiers: Tier[] = [...causes];
  if (o.failing) tiers.push('unmuted data availability');
  if (o.silentAgent) tiers.push('unmuted alerts');
  if (o.behind) tiers.push('informational');
  return tiers.sort((x, y) => tierRank(x) - tierRank(y))[0] ?? 'quiet';
}
