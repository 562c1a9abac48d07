// Questions about the world state that several builders ask: a host's full name and record, when an agent or a
// host went quiet, which configuration a reference means, which hosts a configuration's matchers pick.

import type { AlertConfigRec, GlobalAlertConfigRec, HostRec, MatcherRec } from '../records.js';
import type { Build } from './gen.js';
import { DOMAIN, TOPOLOGY } from './topology.js';
import type { ConfigRef, World } from './world-types.js';

export const fqdn = (short: string): string => `${short}.${DOMAIN}`;
export const shortName = (hostname: string): string => hostname.split('.')[0]!;

export function hostRec(b: Build, short: string): HostRec {
  const h = b.data.hosts.find((x) => x.hostname === fqdn(short));
  if (h === undefined) throw new Error(`demo world: no host ${short}`);
  return h;
}

/** Quiet spells of an agent: its own silences and the outages of the machine it runs on. */
export function agentQuiet(
  world: World,
  project: string,
  type: string,
  short: string,
): Array<{ from: number; to?: number }> {
  const own = world.silences.filter((s) => s.project === project && s.type === type && s.host === short);
  const machine = world.outages.filter((o) => o.machine && o.host === short);
  return [...own, ...machine].map((x) => ({ from: x.from, ...(x.to === undefined ? {} : { to: x.to }) }));
}

export type AnyConfig = AlertConfigRec | GlobalAlertConfigRec;

/** The one configuration a reference names (alert-configs.ts keeps them unique). */
export function configOf(b: Build, ref: ConfigRef): AnyConfig {
  const pool: AnyConfig[] =
    ref.project === undefined
      ? b.data.globalAlertConfigs
      : b.data.alertConfigs.filter((c) => c.groupId === b.project(ref.project!).id);
  const found = pool.filter(
    (c) =>
      c.eventTypeName === ref.event &&
      (ref.metric === undefined || c.metricThreshold?.metricName === ref.metric),
  );
  if (found.length !== 1) throw new Error(`demo world: no single configuration ${JSON.stringify(ref)}`);
  return found[0]!;
}

const key = (m: MatcherRec): string => m.fieldName ?? m.field ?? '';

/** Whether a configuration's matchers pick a host (mongos never carry mongod metrics). */
export function matches(b: Build, matchers: MatcherRec[], host: HostRec): boolean {
  return matchers.every((m) => {
    const v = m.value;
    const test = (actual: string | undefined): boolean => {
      if (actual === undefined) return false;
      if (m.operator === 'EQUALS') return actual === v;
      if (m.operator === 'CONTAINS') return actual.includes(v);
      if (m.operator === 'STARTS_WITH') return actual.startsWith(v);
      if (m.operator === 'NOT_EQUALS') return actual !== v;
      return false;
    };
    switch (key(m)) {
      case 'TYPE_NAME':
        return host.typeName.endsWith(`_${v}`) || host.typeName === v;
      case 'REPLICA_SET_NAME':
      case 'SHARD_NAME':
        return test(host.replicaSetName);
      case 'HOSTNAME':
        return test(host.hostname);
      case 'HOSTNAME_AND_PORT':
        return test(`${host.hostname}:${host.port}`);
      case 'CLUSTER_NAME': {
        const topo = TOPOLOGY.find((t) => b.project(t.name).id === host.groupId);
        return test(topo?.cluster ?? host.replicaSetName);
      }
      default:
        return false;
    }
  });
}

/** Whether a value is past a threshold. */
export function breaches(value: number, operator: string, threshold: number): boolean {
  return operator === 'LESS_THAN' ? value < threshold : value > threshold;
}
