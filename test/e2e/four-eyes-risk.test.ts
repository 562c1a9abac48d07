// Trust, fifth round, finding 1: under DBOPS_APPROVERS one person alone silenced or diverted monitoring —
// disabled alert configurations, pointed PagerDuty at her own key, added a webhook to her own URL, stretched a
// 30-minute window to a year over every alert type. Four eyes now follows the risk a call carries (its kind
// and its preview): each of these waits for an approver, nothing changes on the platform until then, and the
// refusal names the rule and the setting. DBOPS_FOUR_EYES and DBOPS_LONG_WINDOW_HOURS choose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { raw } from '../helpers/http.js';
import { client, teamServer } from '../helpers/team.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
});
afterAll(async () => {
  await sim?.close();
});

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(Date.now() + ms).toISOString().replace(/\.\d+Z$/, 'Z');
const project = () => sim.projectIds[0] as string;
const integrationOf = (type: string) =>
  JSON.stringify(sim.store.data.integrations.find((i) => i.groupId === project() && i.type === type) ?? null);
const approvalIdOf = (r: { structured?: Record<string, unknown> }) =>
  String((r.structured?.confirmation as { approvalId?: string } | undefined)?.approvalId);

describe('finding 1: changes that silence or divert monitoring need a second person', () => {
  it('disabling, integrations and windows that page or run long wait for an approver; nothing changes', async () => {
    const s = await teamServer(sim);
    const alice = await client('v1', s.http.url, () => s.people.alice.token);
    try {
      const enabled = sim.store.data.alertConfigs.filter((c) => c.groupId === project() && c.enabled);
      const pending: string[] = [];
      for (const cfg of enabled.slice(0, 3)) {
        const r = await alice.call('set_alert_config_enabled', { alertConfigId: cfg.id, enabled: false });
        expect(r.structured?.outcome, r.text).toBe('approval_pending');
        expect(r.text).toContain('an approver other than the person who asked');
        pending.push(approvalIdOf(r));
      }
      expect(enabled.slice(0, 3).every((c) => c.enabled)).toBe(true);

      const pagerBefore = integrationOf('INCIDENT_PAGING_A');
      const pager = await alice.call('put_integration', {
        integrationType: 'INCIDENT_PAGING_A',
        settings: { serviceKey: 'alice-own-service-key-0123456789' },
      });
      expect(pager.structured?.outcome, pager.text).toBe('approval_pending');
      const hook = await alice.call('put_integration', {
        integrationType: 'WEBHOOK',
        settings: { url: 'https://alice.example.net/all-alerts' },
      });
      expect(hook.structured?.outcome, hook.text).toBe('approval_pending');
      expect(integrationOf('INCIDENT_PAGING_A')).toBe(pagerBefore);
      expect(integrationOf('WEBHOOK')).not.toContain('alice.example.net');

      // A 30-minute window of a type nothing pages for runs at once (her own consent, none asked for it) …
      const short = await alice.call('create_maintenance_window', {
        startDate: iso(5 * 60_000),
        endDate: iso(35 * 60_000),
        alertTypeNames: ['BACKUP'],
        description: 'four-eyes risk: short',
      });
      expect(short.structured?.outcome ?? 'executed', short.text).not.toBe('approval_pending');
      const w = sim.store.data.maintenanceWindows.find((x) => x.description === 'four-eyes risk: short')!;
      expect(w).toBeDefined();
      // … stretched to a year over every alert type, it waits for an approver.
      const stretched = await alice.call('update_maintenance_window', {
        maintenanceWindowId: w.id,
        endDate: iso(365 * 24 * HOUR),
        alertTypeNames: ['HOST', 'REPLICA_SET', 'BACKUP', 'AGENT', 'HOST_METRIC'],
      });
      expect(stretched.structured?.outcome, stretched.text).toBe('approval_pending');
      expect(stretched.text).toMatch(/window-pages|window-long|silence paging alerts|longer than 24 h/);
      expect(sim.store.data.maintenanceWindows.find((x) => x.id === w.id)?.alertTypeNames).toEqual([
        'BACKUP',
      ]);
      // Alice's client was never asked to approve any of these herself.
      expect(alice.asked).toEqual([]);

      // Bob approves one; alice's call then runs it.
      const first = enabled[0]!;
      const ok = await raw(
        `${s.http.origin}/approvals/${pending[0]}`,
        'POST',
        { authorization: `Bearer ${s.people.bob.token}`, 'content-type': 'application/json' },
        JSON.stringify({ decision: 'approve' }),
      );
      expect(ok.status, ok.body).toBe(200);
      const done = await alice.call('set_alert_config_enabled', {
        alertConfigId: first.id,
        enabled: false,
        projectId: project(),
        approvalId: pending[0],
      });
      expect(done.structured?.outcome, done.text).toBe('executed');
      expect(sim.store.data.alertConfigs.find((c) => c.id === first.id)?.enabled).toBe(false);
    } finally {
      await alice.close();
      await s.close();
    }
  });

  it('alice approving her own disable on the page is refused, naming the rule and the setting', async () => {
    const s = await teamServer(sim, { approvers: ['bob', 'alice'] });
    const alice = await client('pinned', s.http.url, () => s.people.alice.token);
    try {
      const cfg = sim.store.data.alertConfigs.find((c) => c.groupId === project() && c.enabled)!;
      const r = await alice.call('set_alert_config_enabled', { alertConfigId: cfg.id, enabled: false });
      const self = await raw(
        `${s.http.origin}/approvals/${approvalIdOf(r)}`,
        'POST',
        { authorization: `Bearer ${s.people.alice.token}`, 'content-type': 'application/json' },
        JSON.stringify({ decision: 'approve' }),
      );
      expect(self.status).toBe(403);
      expect(JSON.parse(self.body).detail).toContain(
        'disables an alert configuration: one of the approvers (DBOPS_APPROVERS), someone other than alice, must approve it (four-eyes rule: disable-alerting; DBOPS_FOUR_EYES)',
      );
      expect(cfg.enabled).toBe(true);
    } finally {
      await alice.close();
      await s.close();
    }
  });

  it('DBOPS_FOUR_EYES and DBOPS_LONG_WINDOW_HOURS choose: outside them the asker consents herself', async () => {
    const s = await teamServer(sim, { config: { fourEyes: ['grant', 'key'], longWindowHours: 72 } });
    const alice = await client('v1', s.http.url, () => s.people.alice.token);
    try {
      const cfg = sim.store.data.alertConfigs.find((c) => c.groupId === project() && c.enabled)!;
      const off = await alice.call('set_alert_config_enabled', { alertConfigId: cfg.id, enabled: false });
      expect(off.structured?.outcome, off.text).toBe('executed');
      expect(alice.asked.length).toBe(1);
      const key = await alice.call('create_project_api_key', {
        desc: `risk ${Math.random()}`,
        roles: ['GROUP_READ_ONLY'],
      });
      expect(key.structured?.outcome, key.text).toBe('approval_pending');
    } finally {
      await alice.close();
      await s.close();
    }
    // With the default limit a 48-hour window nothing pages for waits for an approver; with 72 h it does not.
    const strict = await teamServer(sim);
    const bob = await client('v1', strict.http.url, () => strict.people.bob.token);
    try {
      const long = await bob.call('create_maintenance_window', {
        startDate: iso(HOUR),
        endDate: iso(49 * HOUR),
        alertTypeNames: ['BACKUP'],
        description: 'four-eyes risk: long',
      });
      expect(long.structured?.outcome, long.text).toBe('approval_pending');
      expect(long.text).toContain('(four-eyes rule: window-long; DBOPS_FOUR_EYES)');
      expect(sim.store.data.maintenanceWindows.some((x) => x.description === 'four-eyes risk: long')).toBe(
        false,
      );
    } finally {
      await bob.close();
      await strict.close();
    }
  });
});

describe('finding 3: consent binds the ids that were seen', () => {
  it("a project named in a role's groupId is resolved before the preview; a rename after consent grants nothing", async () => {
    const s = await teamServer(sim);
    const alice = await client('pinned', s.http.url, () => s.people.alice.token);
    const u = sim.store.data.users.find((x) => x.firstName && x.roles.some((r) => r.groupId))!;
    const [a, b] = sim.store.data.projects.filter((p) => !u.roles.some((r) => r.groupId === p.id));
    const names = { a: a!.name, b: b!.name };
    const args = { userId: u.id, mode: 'add', roles: [{ groupId: a!.name, roleName: 'GROUP_READ_ONLY' }] };
    try {
      const asked = await alice.call('update_user_roles', args);
      expect(asked.structured?.outcome, asked.text).toBe('approval_pending');
      const id = approvalIdOf(asked);
      // What the approver sees, what consent is bound to and what the audit holds: the id.
      const record = await s.approvals.channel.get(id);
      expect(record?.args.roles).toEqual([{ groupId: a!.id, roleName: 'GROUP_READ_ONLY' }]);
      expect(record?.preview.action + JSON.stringify(record?.preview)).toContain(a!.id);
      const bob = await raw(
        `${s.http.origin}/approvals/${id}`,
        'POST',
        { authorization: `Bearer ${s.people.bob.token}`, 'content-type': 'application/json' },
        JSON.stringify({ decision: 'approve' }),
      );
      expect(bob.status, bob.body).toBe(200);
      // The platform renames: a's name now belongs to b.
      a!.name = `${names.a}-old`;
      b!.name = names.a;
      const resumed = await alice.call('update_user_roles', { ...args, approvalId: id });
      expect(resumed.isError, resumed.text).toBe(true);
      const roles = sim.store.data.users.find((x) => x.id === u.id)!.roles;
      expect(roles.some((r) => r.groupId === b!.id)).toBe(false);
      const audit = JSON.stringify(
        (await import('node:fs'))
          .readFileSync(s.t.config.auditLog, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
          .filter((e) => e.tool === 'update_user_roles'),
      );
      expect(audit).toContain(a!.id);
      expect(audit).not.toContain(`"groupId":"${names.a}"`);
    } finally {
      a!.name = names.a;
      b!.name = names.b;
      await alice.close();
      await s.close();
    }
  });
});
