// Grows the simulator's demo data in place: every record of the listable collections is copied `times` - 1
// times under a fresh id (references to configs, projects and hosts stay valid), and so are the processes of
// each automation plan. Used to show that answers stay bounded however much the platform holds.
//
// Events are most of the copies (about 1,250 of the 1,400 records, so 120,000 at 100×), and the platform
// only ever appends them: the simulator never changes an event's fields, and renders each through a deep
// clone. Their copies are shallow (their nested documents shared); every other record is cloned deep, since
// routes change those in place. Ids come from one random buffer per collection and round, not one call each.
// At 100× this takes a fraction of a second instead of about 12 s of CPU.
import { randomBytes } from 'node:crypto';
import type { Store } from '../../src/simulator/store.js';

type Rec = Record<string, unknown>;

/** Records the simulator only appends and reads: their copies may share nested values. */
const APPEND_ONLY = ['events', 'globalEvents'] as const;
const CHANGED_IN_PLACE = [
  'alertConfigs',
  'alerts',
  'globalAlertConfigs',
  'globalAlerts',
  'maintenanceWindows',
  'agents',
  'hosts',
] as const;

/** `count` fresh ids, 24 lowercase hex characters each, like the simulator's newObjectId(). */
function objectIds(count: number): string[] {
  const hex = randomBytes(12 * count).toString('hex');
  return Array.from({ length: count }, (_, i) => hex.slice(24 * i, 24 * i + 24));
}

/** Appends `times` - 1 copies of each record to `records`, in rounds, each copy under a fresh id. */
function grow(records: Rec[], times: number, deep: boolean): void {
  const originals = [...records];
  for (let i = 1; i < times; i++) {
    const ids = objectIds(originals.length);
    const round = deep ? structuredClone(originals) : originals;
    round.forEach((rec, k) => {
      records.push({ ...rec, id: ids[k] });
    });
  }
}

export function scaleStore(store: Store, times: number): void {
  const data = store.data as unknown as Record<string, Rec[]>;
  for (const name of CHANGED_IN_PLACE) grow(data[name] ?? [], times, true);
  for (const name of APPEND_ONLY) grow(data[name] ?? [], times, false);
  for (const plan of store.data.automation) {
    const originals = plan.processes;
    const more = [];
    for (let i = 1; i < times; i++)
      for (const p of structuredClone(originals)) more.push({ ...p, name: `${p.name}-${i}` });
    plan.processes = [...originals, ...more];
  }
}
