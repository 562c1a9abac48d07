// A host's state and a replica set's (or shard's) writability. A host's type (SHARD_PRIMARY…) is what it last
// reported: while it pings that is its role; once it stopped, the role is "last known". A set takes writes when
// it has a primary that pings. Where the records disagree (a host that pings with an open HOST_DOWN), both are
// kept and the disagreement named: no rule here picks one in silence.
import { isOpen } from './alerts.js';
import { hostMatches } from './names.js';

/**
 * A host not heard from for longer than this has stopped pinging, unless the caller knows the project's own
 * HOST_DOWN threshold (the demo's configuration says 5 minutes).
 */
const HOST_SILENT_MIN = 5;
const MINUTE = 60_000;

export interface HostFields {
  id?: string;
  hostname?: string;
  port?: number;
  typeName?: string;
  replicaSetName?: string;
  lastPing?: string;
}

interface HostAlertFields {
  id?: string;
  status?: string;
  eventTypeName?: string;
  hostId?: string;
  hostnameAndPort?: string;
  replicaSetName?: string;
  created?: string;
}

type HostStateName = 'pinging' | 'down' | 'disputed' | 'unknown';

export interface HostState {
  state: HostStateName;
  /** The role it reported (SHARD_PRIMARY…); `roleLastKnown` when it no longer pings. */
  role?: string;
  roleLastKnown: boolean;
  lastPing?: string;
  /** Down since: its last ping, else the open HOST_DOWN's start. */
  downSince?: string;
  /** The open HOST_DOWN alert on it, if any. */
  downAlertId?: string;
  /** It pinged within the threshold and an open HOST_DOWN says it is down: both records, kept. */
  contradiction?: { lastPing: string; hostDownAlertId?: string };
}

export const hostAddress = (h: HostFields): string => `${h.hostname ?? '?'}:${h.port ?? '?'}`;

const onHost = (a: HostAlertFields, h: HostFields): boolean =>
  a.hostId !== undefined ? a.hostId === h.id : hostMatches(a.hostnameAndPort ?? '', h);

/** A host's state from its last ping and its open HOST_DOWN alert (from the alerts given). */
export function hostState(
  h: HostFields,
  alerts: readonly HostAlertFields[],
  now: Date,
  silentMin = HOST_SILENT_MIN,
): HostState {
  const down = alerts.find((a) => a.eventTypeName === 'HOST_DOWN' && isOpen(a) && onHost(a, h));
  const ping = Date.parse(h.lastPing ?? '');
  const pings = Number.isFinite(ping) ? now.getTime() - ping <= silentMin * MINUTE : undefined;
  const base = { role: h.typeName, ...(h.lastPing ? { lastPing: h.lastPing } : {}) };
  const alert = down ? { downAlertId: down.id } : {};
  if (pings === true && down)
    return {
      ...base,
      ...alert,
      state: 'disputed',
      roleLastKnown: false,
      contradiction: { lastPing: h.lastPing!, hostDownAlertId: down.id },
    };
  if (pings === true) return { ...base, state: 'pinging', roleLastKnown: false };
  if (pings === false || down)
    return {
      ...base,
      ...alert,
      state: 'down',
      roleLastKnown: true,
      ...(h.lastPing || down?.created ? { downSince: h.lastPing ?? down?.created } : {}),
    };
  return { ...base, state: 'unknown', roleLastKnown: true };
}

const isPrimaryRole = (role: string | undefined): boolean => /PRIMARY$/.test(role ?? '');

export interface Writability {
  writable: boolean;
  /** The primary that pings. */
  primary?: string;
  /** Members that reported PRIMARY last and no longer ping (or are disputed). */
  lastKnownPrimaries: string[];
  /** A primary pings and an open NO_PRIMARY says there is none: both records, kept. */
  contradiction?: { primary: string; noPrimaryAlertId: string };
}

/**
 * Whether a replica set or shard takes writes: a primary that pings, or none. `noPrimaryAlertId`: an open
 * NO_PRIMARY on the set, kept beside a pinging primary as a contradiction.
 */
export function writability(
  members: ReadonlyArray<{ host: HostFields; state: HostState }>,
  noPrimaryAlertId?: string,
): Writability {
  const primaries = members.filter((m) => isPrimaryRole(m.state.role));
  const live = primaries.find((m) => m.state.state === 'pinging');
  const lastKnownPrimaries = primaries.filter((m) => m !== live).map((m) => hostAddress(m.host));
  return {
    writable: live !== undefined,
    ...(live ? { primary: hostAddress(live.host) } : {}),
    lastKnownPrimaries,
    ...(live && noPrimaryAlertId
      ? { contradiction: { primary: hostAddress(live.host), noPrimaryAlertId } }
      : {}),
  };
}

/** The open NO_PRIMARY alert on a replica set (or shard) by name, from the alerts given. */
export const noPrimaryAlert = (
  set: string,
  alerts: readonly HostAlertFields[],
): HostAlertFields | undefined =>
  alerts.find((a) => a.eventTypeName === 'NO_PRIMARY' && isOpen(a) && a.replicaSetName === set);
