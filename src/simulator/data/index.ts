// The demo dataset: one organization with four projects, their hosts, agents, automation status, alert
// configurations and alerts, maintenance windows, integrations, users and keys, and a month of events.
// Each file here holds one entity's table and the small function that turns it into records. Every
// value comes from one seeded PRNG drawn in the order below, so ids and contents are identical on every
// start for a given seed (test/unit/simulator-dataset.test.ts pins the bytes); timestamps are offsets
// from the `now` at creation.

import { emptyData, type StoreData } from '../records.js';
import { buildAgents } from './agents.js';
import { buildAlertConfigs, buildGlobalAlerts } from './alert-configs.js';
import { buildAlerts } from './alerts.js';
import { buildAutomation } from './automation.js';
import { buildEvents } from './events.js';
import { Build } from './gen.js';
import { buildIntegrations } from './integrations.js';
import { buildKeys, buildUsers } from './people.js';
import { buildTopology } from './topology.js';
import { buildWindows } from './windows.js';

/** In PRNG order: a step added in the middle changes every id after it. */
const STEPS = [
  buildTopology,
  buildAgents,
  buildAutomation,
  buildUsers,
  buildKeys,
  buildAlertConfigs,
  buildAlerts,
  buildGlobalAlerts,
  buildWindows,
  buildIntegrations,
  buildEvents,
];

export function buildDemoDataset(seed: number, now: Date): StoreData {
  const b = new Build(seed, now, emptyData());
  for (const step of STEPS) step(b);
  return b.data;
}
