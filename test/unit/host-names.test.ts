// The one resolver for host names (src/feeds/names.ts): what a person types matches a host by id, by short
// name, with or without domain or port; an ambiguous name is refused with its candidates.
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../src/api/client.js';
import { resolveHost } from '../../src/feeds/names.js';
import { hostMatches, nearNames } from '../../src/rules/index.js';
import { ToolInputError } from '../../src/tool/index.js';

const h = { id: '9e941b31c54e1f7fb84d7a6a055fb5f4', hostname: 'db-prod-06.example.internal', port: 27017 };

describe('hostMatches', () => {
  it.each([
    'db-prod-06',
    'DB-PROD-06',
    'db-prod-06.example.internal',
    'db-prod-06.example',
    'db-prod-06:27017',
    'db-prod-06.example.internal:27017',
    '9e941b31c54e1f7fb84d7a6a055fb5f4',
  ])('%s names the host', (typed) => expect(hostMatches(typed, h)).toBe(true));

  it.each(['db-prod-0', 'db-prod-06:27018', 'prod-06', 'example.internal', 'db-prod-06.other.internal', ''])(
    '%s does not',
    (typed) => expect(hostMatches(typed, h)).toBe(false),
  );

  it("an alert's host:port and an agent's bare short name match each other", () => {
    expect(hostMatches('db-prod-06.example.internal:27017', { hostname: 'db-prod-06' })).toBe(true);
    expect(hostMatches('db-prod-06', { hostname: 'db-prod-06.example.internal:27017' })).toBe(true);
  });
});

describe('resolveHost', () => {
  const hosts = [
    h,
    { ...h, id: 'aa41b31c54e1f7fb84d7a6a055fb5f40', port: 27018 },
    { id: 'bb41b31c54e1f7fb84d7a6a055fb5f40', hostname: 'db-prod-05.example.internal', port: 27017 },
  ];
  const api = {
    hosts: { list: async () => ({ results: hosts, totalCount: hosts.length, links: [] }) },
  } as unknown as ApiClient;

  it('one match: the host', async () => {
    expect((await resolveHost(api, 'db-prod-05', { projectId: 'p' })).host.id).toBe(hosts[2]!.id);
    expect((await resolveHost(api, 'db-prod-06:27018', { projectId: 'p' })).host.id).toBe(hosts[1]!.id);
  });

  it('an ambiguous name is refused with every candidate and how to choose', async () => {
    const e = await resolveHost(api, 'db-prod-06', { projectId: 'p' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ToolInputError);
    const m = (e as Error).message;
    expect(m).toContain('"db-prod-06" names 2 hosts');
    expect(m).toContain(`hostId ${hosts[0]!.id}`);
    expect(m).toContain(`hostId ${hosts[1]!.id}`);
    expect(m).toContain('with its port');
  });

  it('no match: what was searched, and near names', async () => {
    const e = await resolveHost(api, 'db-prod-07', { projectId: 'p' }).catch((x: unknown) => x);
    expect((e as Error).message).toMatch(
      /No host named "db-prod-07" among the 3 hosts of project p .*Near names: db-prod-05, db-prod-06\./,
    );
  });

  it('near names are close ones only', () => {
    expect(nearNames('db-prdo-06', ['db-prod-06.x', 'db-stg-01.x', 'cfg-analytics-01.x'])).toEqual([
      'db-prod-06',
    ]);
  });
});
