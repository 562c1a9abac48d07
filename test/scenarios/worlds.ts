// The worlds the second on-call suite is asked of (issue 42's "done when"): the demo, and the demo grown to an
// installation of 500 projects (its stories kept in the first four). One simulator and one server per world
// and file; each question's facts come from that world's records, so the same check holds on either.
import { afterAll, beforeAll, describe } from 'vitest';
import { startTestServer, type TestServer, type TestServerOptions } from '../helpers/mcp.js';
import { type Simulator, startTestSimulator } from '../helpers/sim.js';

export const WORLDS = [4, 500] as const;

export interface World {
  projects: number;
  sim: Simulator;
  t: TestServer;
}

/**
 * Runs `body` once per world inside its own describe, the world started before its tests and closed after.
 * `server` adds to the test server's options (a read cache, say).
 */
export function eachWorld(
  title: string,
  body: (world: World) => void,
  server: Omit<TestServerOptions, 'sim'> = {},
): void {
  // A cold read of 500 projects on a shared machine: the time limits are the test's, not the defaults.
  for (const projects of WORLDS)
    describe(`${title} (${projects} projects)`, { timeout: 150_000 }, () => {
      const world = { projects } as World;
      beforeAll(async () => {
        world.sim = await startTestSimulator({ projects });
        world.t = await startTestServer({
          ...server,
          sim: world.sim,
          config: { installationReadMs: 120_000, ...server.config },
        });
      }, 60_000);
      afterAll(async () => {
        await world.t?.close();
        await world.sim?.close();
      });
      body(world);
    });
}
