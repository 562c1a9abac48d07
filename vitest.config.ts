import { defineConfig } from 'vitest/config';

// Two projects. `unit` (test/unit, `npm run test:unit`) needs no build, no Redis and no browser: its files
// share one module graph per worker (isolate: false), so the server's modules load once, not once per file.
// `e2e` is everything else, after `npm run build`, with the prerequisites check. Files run two at a time on
// a 2-core machine (vitest's default is one fewer than the cores): most e2e time is spent waiting on child
// processes, sockets and the simulator, which the other file's work fills.
export default defineConfig({
  test: {
    // Bounds, not waits: a test that passes takes what it takes, and on a busy 2-core machine (load 20 and
    // more) a test driving several processes can take well over 30 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: ['test/unit/**'],
          globalSetup: ['test/prerequisites.ts'],
        },
      },
    ],
  },
});
