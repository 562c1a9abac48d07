// Dynamic toolsets on replicas sharing Redis (trust finding 6): the 2026-07-28 era keeps no toolset choices, so
// one person's many client names leave nothing in the shared store, and a new conversation starts with the
// tools every conversation starts with, whichever replica answers.
import { execFileSync } from 'node:child_process';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { noRedis, startRedis, type TestRedis } from '../helpers/redis.js';
import { type ReplicaSet, startReplicas } from '../helpers/replicas.js';
import type { Simulator } from '../helpers/sim.js';

const FIRST = ['list_toolsets', 'get_toolset_tools', 'enable_toolset', 'call_read_tool', 'list_projects'];

describe.skipIf(noRedis)('dynamic toolsets on replicas sharing Redis', () => {
  let redis: TestRedis;
  let sim: Simulator;
  let set: ReplicaSet;
  beforeAll(async () => {
    redis = await startRedis();
    sim = await startSimulator({ dataset: 'demo', port: 0 });
    set = await startReplicas({ n: 2, redisUrl: redis.url, sim, env: { DBOPS_TOOLSETS: 'dynamic' } });
  }, 60_000);
  afterAll(async () => {
    await set?.close();
    await sim?.close();
    await redis?.stop();
  });
  const conversation = async (name: string) => {
    const c = new Client({ name, version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await c.connect(new StreamableHTTPClientTransport(new URL(set.url)));
    return c;
  };
  const keys = () =>
    execFileSync('redis-cli', ['-p', String(redis.port), '--scan'], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean);

  it('one person under 40 client names enabling sets leaves no key, and the next conversation starts afresh', async () => {
    const before = keys();
    for (let i = 0; i < 40; i++) {
      const c = await conversation(`client-${i}`);
      const r = await c.callTool({
        name: 'enable_toolset',
        arguments: { toolset: i % 2 ? 'events' : 'windows' },
      });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      await c.close();
    }
    expect(keys().filter((k) => !before.includes(k))).toEqual([]);
    const again = await conversation('client-1');
    try {
      expect((await again.listTools()).tools.map((t) => t.name)).toEqual(FIRST);
      const read = await again.callTool({
        name: 'call_read_tool',
        arguments: { tool: 'list_project_events', arguments: '{}' },
      });
      expect(read.isError, JSON.stringify(read.content)).toBeFalsy();
    } finally {
      await again.close();
    }
  }, 120_000);
});
