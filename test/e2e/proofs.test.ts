// Trust, fifth round, finding 5: a proof is bound to the person who was asked and to the installation. carol
// redeemed alice's confirmation token; the same token, and one accepted 2026 answer, ran again on a second
// server sharing DBOPS_TOKEN_SECRET but not the state store: one "yes", two changes. Replicas sharing the store
// (one installation id, created once there) accept each other's proofs; a server with another store refuses.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentCodec } from '../../src/mcp/consent.js';
import { createSigner } from '../../src/policy/signer.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { fileInstallation } from '../../src/state/installation.js';
import { fileLedger } from '../../src/state/ledger.js';
import { client, teamServer } from '../helpers/team.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0 });
});
afterAll(async () => {
  await sim?.close();
});

describe('finding 5: proofs are bound to the person and the installation', () => {
  it("carol cannot redeem alice's confirmation token; alice can", async () => {
    const s = await teamServer(sim, { approvers: [], config: { confirmVia: ['token'] } });
    const alice = await client('pinned', s.http.url, () => s.people.alice.token);
    const carol = await client('pinned', s.http.url, () => s.people.carol.token);
    try {
      const w = sim.store.data.maintenanceWindows.find(
        (x) => x.groupId === sim.projectIds[0] && Date.parse(x.endDate) > Date.now(),
      )!;
      const asked = await alice.call('delete_maintenance_window', { maintenanceWindowId: w.id });
      expect(asked.structured?.outcome, asked.text).toBe('confirmation_required');
      const token = String(
        (asked.structured?.confirmation as { confirmationToken?: string } | undefined)?.confirmationToken,
      );
      const args = { maintenanceWindowId: w.id, projectId: sim.projectIds[0], confirmationToken: token };
      const stolen = await carol.call('delete_maintenance_window', args);
      expect(stolen.isError, stolen.text).toBe(true);
      expect(stolen.text).toContain('issued to another person');
      expect(sim.store.data.maintenanceWindows.some((x) => x.id === w.id)).toBe(true);
      const own = await alice.call('delete_maintenance_window', args);
      expect(own.structured?.outcome, own.text).toBe('executed');
    } finally {
      await alice.close();
      await carol.close();
      await s.close();
    }
  });

  it('a second server with the same secret but another state store refuses the token and the sealed answer', async () => {
    const secret = 'one-shared-token-secret-0123456789';
    const [dirA, dirB] = [mkdtempSync(join(tmpdir(), 'proofs-a-')), mkdtempSync(join(tmpdir(), 'proofs-b-'))];
    // Two replicas on store A (the installation id is created once, read by both), one server on store B.
    const signer = async (dir: string) =>
      createSigner(secret, undefined, fileLedger(join(dir, 'ledger')), await fileInstallation(dir));
    const [a1, a2, b] = [await signer(dirA), await signer(dirA), await signer(dirB)];
    expect(a1.installation).toBe(a2.installation);
    expect(b.installation).not.toBe(a1.installation);
    const t1 = a1.issue('delete_maintenance_window', 'h1', 'alice').token;
    expect(await b.redeem(t1, 'delete_maintenance_window', 'h1', 'alice')).toBe('invalid');
    expect(await a2.redeem(t1, 'delete_maintenance_window', 'h1', 'alice')).toBe('ok');
    expect(await a1.redeem(t1, 'delete_maintenance_window', 'h1', 'alice')).toBe('used');

    // A 2026 answer's sealed state: a replica of the same installation reads it, the other server does not.
    const ctx = {
      mcpReq: { method: 'tools/call' },
      http: { authInfo: { clientId: 'person:alice' } },
    } as unknown as NonNullable<Parameters<ReturnType<typeof consentCodec>['mint']>[1]>;
    const sealed = { tool: 't', hash: 'h', nonce: 'n', askedAtMs: 1, expiresAtMs: Date.now() + 60_000 };
    const state = await consentCodec(a1, 60_000).mint(sealed, ctx);
    expect(await consentCodec(a2, 60_000).verify(state, ctx)).toEqual(sealed);
    await expect(consentCodec(b, 60_000).verify(state, ctx)).rejects.toThrow();
  });
});
