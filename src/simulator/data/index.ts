// The demo dataset: one organization with four projects, their hosts, agents, automation status, alert
// configurations and alerts, maintenance windows, integrations, users and keys, and a month of events.
// What is going on in it — which agent runs where, which host or agent went quiet when, what the metrics read,
// who deployed or changed what — is one world state (world.ts); agents, alerts, events and automation
// status are derived from it, so every answer agrees with every other (docs/demo-world.md tells the story).
// Ids and the values the world leaves open come from one seeded PRNG drawn in the order below, so the
// dataset is identical on every start for a given seed (test/unit/simulator-dataset.test.ts pins the
// bytes); timestamps are offsets from the `now` at creation.

import { checkWorld } from '../derive-check.js';
import { buildEvents } from '../derive-events.js';
import { emptyData, type StoreData } from '../records.js';
import { applyOutages, buildAgents } from './agents.js';
import {
  applyConfigChanges,
  buildAlertConfigs,
  buildGlobalAlertConfigs,
  CONFIG_REFS,
} from './alert-configs.js';
import { buildAlerts, buildGlobalAlerts } from './alerts.js';
import { buildAutomation } from './automation.js';
import { Build } from './gen.js';
import { growInstallation } from './installation.js';
import { buildIntegrations } from './integrations.js';
import { buildKeys, buildUsers } from './people.js';
import { buildTopology } from './topology.js';
import { buildWindows } from './windows.js';
import { WORLD } from './world.js';
import type { World } from './world-types.js';

/**
 * Draws that agents and automation took before users when the demo was drawn at random: skipped, so the ids
 * of the users, keys and alert configurations drawn after them stay those the README and docs show.
 */
const EARLIER_DRAWS = 117;

function skipEarlierDraws(b: Build): void {
  for (let n = 0; n < EARLIER_DRAWS; n++) b.r.next();
}

/** In PRNG order: a step added in the middle changes every id after it. */
const STEPS = [
  buildTopology,
  skipEarlierDraws,
  buildUsers,
  buildKeys,
  buildAlertConfigs,
  buildGlobalAlertConfigs,
  applyConfigChanges,
  applyOutages,
  buildAgents,
  buildAutomation,
  buildAlerts,
  buildGlobalAlerts,
  buildWindows,
  buildIntegrations,
  buildEvents,
];

/** A world that contradicts itself stops the start, each contradiction on a line with where it is. */
export class WorldError extends Error {
  constructor(readonly problems: string[]) {
    super(`The demo world contradicts itself:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'WorldError';
  }
}

export function assertWorld(world: World): void {
  const problems = checkWorld(world, CONFIG_REFS);
  if (problems.length > 0) throw new WorldError(problems);
}

/** The demo; with `projects` above four, an installation of that many grown from it (installation.ts). */
export function buildDemoDataset(seed: number, now: Date, projects = 0): StoreData {
  assertWorld(WORLD);
  const b = new Build(seed, now, emptyData());
  for (const step of STEPS) step(b);
  if (projects > b.data.projects.length) growInstallation(b, projects);
  return b.data;
}
