import { describe, expect, it } from 'vitest';
import { buildDemoDataset } from '../../src/simulator/data/index.js';

// An installation of N projects: the demo's four first, unchanged, then copies of them under names of
// their own. What a person names — a project, a host — names one thing across the whole installation.
const NOW = new Date('2026-03-01T12:00:00Z');
const demo = buildDemoDataset(20260101, NOW);
const big = buildDemoDataset(20260101, NOW, 120);

describe('an installation of N projects', () => {
  it('has N projects, the demo first and unchanged', () => {
    expect(big.projects).toHaveLength(120);
    expect(big.projects.slice(0, 4)).toEqual(demo.projects);
    const firstFour = new Set(demo.projects.map((p) => p.id));
    expect(big.alerts.filter((a) => firstFour.has(a.groupId ?? ''))).toEqual(demo.alerts);
    expect(big.demo.projectIds).toEqual(big.projects.map((p) => p.id));
  });

  it('names every project, host and record once', () => {
    const unique = (xs: string[]) => new Set(xs).size === xs.length;
    expect(unique(big.projects.map((p) => p.name))).toBe(true);
    expect(unique(big.hosts.map((h) => h.hostname))).toBe(true);
    expect(
      unique([...big.alerts, ...big.alertConfigs, ...big.events, ...big.maintenanceWindows].map((x) => x.id)),
    ).toBe(true);
    expect(big.hosts.filter((h) => h.hostname.startsWith('db-prod-06.'))).toHaveLength(1);
  });

  it("gives each copy its template's records, joined to its own hosts and configurations", () => {
    const copy = big.projects[4]!;
    const hosts = new Set(big.hosts.filter((h) => h.groupId === copy.id).map((h) => h.id));
    const configs = new Set(big.alertConfigs.filter((c) => c.groupId === copy.id).map((c) => c.id));
    const alerts = big.alerts.filter((a) => a.groupId === copy.id);
    expect(alerts.length).toBe(demo.alerts.filter((a) => a.groupId === demo.projects[0]!.id).length);
    for (const a of alerts) {
      expect(configs.has(a.alertConfigId)).toBe(true);
      if (a.hostId) expect(hosts.has(a.hostId)).toBe(true);
      if (a.hostnameAndPort) expect(a.hostnameAndPort).toContain(copy.name);
    }
    expect(big.users.some((u) => u.roles.some((r) => r.groupId === copy.id))).toBe(true);
  });

  it('is the same installation for the same seed and N', () => {
    expect(JSON.stringify(buildDemoDataset(20260101, NOW, 120))).toBe(JSON.stringify(big));
  });
});
