// Grows the simulator's demo data in place: every record of the listable collections is copied `times` - 1
// times under a fresh id (references to configs, projects and hosts stay valid), and so are the processes of
// each automation plan. Used to show that answers stay bounded however much the platform holds.
import type { Store } from '../../src/simulator/store.js';
import { newObjectId } from '../../src/simulator/values.js';

const COPIED = [
  'alertConfigs',
  'alerts',
  'globalAlertConfigs',
  'globalAlerts',
  'maintenanceWindows',
  'agents',
  'hosts',
  'events',
  'globalEvents',
] as const;

export function scaleStore(store: Store, times: number): void {
  const data = store.data as unknown as Record<string, Array<Record<string, unknown>>>;
  for (const name of COPIED) {
    const originals = [...(data[name] ?? [])];
    for (let i = 1; i < times; i++)
      for (const rec of originals) data[name]!.push({ ...structuredClone(rec), id: newObjectId() });
  }
  for (const plan of store.data.automation) {
    const originals = plan.processes;
    const copies = [];
    for (let i = 1; i < times; i++)
      for (const p of originals) copies.push({ ...structuredClone(p), name: `${p.name}-${i}` });
    plan.processes = [...originals, ...copies];
  }
}
