// The confirmation channels end to end: the real server, the real approval page on loopback, the simulator
// behind the real API client. A person's click is a browser-shaped POST (cookie, hidden secret, Origin).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApprovalService, createApprovalService } from '../../src/approval/index.js';
import { silentLogger } from '../../src/log.js';
import { createAuditLog } from '../../src/policy/audit.js';
import { pageForm, raw } from '../helpers/http.js';
import { startTestHttp, startTestServer, type TestServer, type TestServerOptions } from '../helpers/mcp.js';

/** This machine's user alone: no identity configured, every request theirs. */
const ALONE = { person: 'local', approver: false, alone: true };

const TOOL = 'set_alert_config_enabled';
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
});

/** What the person's browser does: load the page, then submit its form with the cookie it got. */
async function decide(url: string, decision: 'approve' | 'decline') {
  const { page, cookie, csrf } = await pageForm(url);
  expect(page.status).toBe(200);
  const r = await raw(
    url,
    'POST',
    { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin, cookie },
    new URLSearchParams({ csrf, decision }).toString(),
  );
  expect(r.status).toBe(303);
  return page.body;
}

interface Setup {
  t: TestServer;
  approvals: ApprovalService;
  auditFile: string;
  projectId: string;
  configId: string;
  enabled(id?: string): boolean | undefined;
  audit(): Array<Record<string, unknown>>;
}

async function setup(
  opts: {
    config?: Record<string, unknown>;
    elicit?: TestServerOptions['elicit'];
    withPage?: boolean;
    open?: (url: string) => void;
    now?: () => Date;
  } = {},
): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'dbops-approval-e2e-'));
  const auditFile = join(dir, 'audit.log');
  const approvals = createApprovalService({
    ttlMs: 600_000,
    audit: createAuditLog(auditFile, silentLogger),
    logger: silentLogger,
    open: opts.open,
    now: opts.now,
    tickMs: 50,
  });
  open.push(approvals);
  await approvals.listen();
  const t = await startTestServer({
    approvals: opts.withPage === false ? undefined : approvals.channel,
    elicit: opts.elicit,
    config: { auditLog: auditFile, ...opts.config },
  });
  open.push(t);
  const projectId = t.sim.projectIds[0]!;
  const configs = t.sim.store.data.alertConfigs.filter((c) => c.groupId === projectId && c.enabled);
  expect(configs.length).toBeGreaterThan(1);
  return {
    t,
    approvals,
    auditFile,
    projectId,
    configId: configs[0]!.id,
    enabled: (id = configs[0]!.id) => t.sim.store.data.alertConfigs.find((c) => c.id === id)?.enabled,
    audit: () =>
      readFileSync(auditFile, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const confirmation = (r: { structured?: Record<string, unknown> }) =>
  r.structured?.confirmation as { channel: string; approvalId: string; url: string; expiresAt: string };

describe('approval page channel (client without elicitation)', () => {
  it('answers at once with the link, then executes exactly once after the person approves', async () => {
    const s = await setup();
    const args = { projectId: s.projectId, alertConfigId: s.configId, enabled: false };
    const first = await s.t.call(TOOL, args);
    expect(first.isError).toBe(false);
    expect(first.structured?.outcome).toBe('approval_pending');
    const c = confirmation(first);
    expect(c.channel).toBe('approval-page');
    expect(c.approvalId).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(c.url).toBe(`${s.approvals.origin()}/approvals/${c.approvalId}`);
    expect(Date.parse(c.expiresAt) - Date.now()).toBeGreaterThan(590_000);
    expect(first.text).toContain(c.url);
    expect(first.text).toMatch(new RegExp(`Disable alert configuration \`[^\`]+\` \\(${s.configId}\\)`));
    expect(first.text).toMatch(/Show the link to the person/);
    expect(first.text).toContain(`approvalId "${c.approvalId}"`);
    expect(s.enabled()).toBe(true);

    const early = await s.t.call(TOOL, { ...args, approvalId: c.approvalId });
    expect(early.isError).toBe(false);
    expect(early.text).toContain('still pending');
    expect(s.enabled()).toBe(true);

    const page = await decide(c.url, 'approve');
    expect(page).toMatch(new RegExp(`Disable alert configuration \`[^\`]+\` \\(${s.configId}\\)`));
    expect(s.enabled()).toBe(true); // approving alone changes nothing: the call executes

    const done = await s.t.call(TOOL, { ...args, approvalId: c.approvalId });
    expect(done.isError).toBe(false);
    expect(done.structured?.outcome).toBe('executed');
    expect(done.text).toContain('is now disabled');
    expect(s.enabled()).toBe(false);

    const again = await s.t.call(TOOL, { ...args, approvalId: c.approvalId });
    expect(again.isError).toBe(true);
    expect(again.text).toContain('already used');

    const trail = s.audit().map((e) => `${e.outcome}:${e.channel}`);
    expect(trail).toEqual([
      'approval_pending:approval-page',
      'confirmed:approval-page',
      'executed:approval-page',
      'rejected:approval-page',
    ]);
  });

  it('resumes only for the session that asked: another session with the same arguments is refused', async () => {
    const s = await setup();
    const http = await startTestHttp(s.t.deps);
    const session = async () => {
      const c = new Client({ name: 'session', version: '1' });
      await c.connect(new StreamableHTTPClientTransport(new URL(http.url)));
      return c;
    };
    const [asker, other] = [await session(), await session()];
    try {
      const args = { projectId: s.projectId, alertConfigId: s.configId, enabled: false };
      const first = (await asker.callTool({ name: TOOL, arguments: args })) as {
        structuredContent?: Record<string, unknown>;
      };
      const c = confirmation({ structured: first.structuredContent });
      await decide(c.url, 'approve');
      const stolen = (await other.callTool({
        name: TOOL,
        arguments: { ...args, approvalId: c.approvalId },
      })) as {
        isError?: boolean;
        content: Array<{ text: string }>;
      };
      expect(stolen.isError).toBe(true);
      expect(stolen.content[0]?.text).toMatch(/another session or client asked for it; nothing changed/);
      expect(s.enabled()).toBe(true);
      const own = (await asker.callTool({
        name: TOOL,
        arguments: { ...args, approvalId: c.approvalId },
      })) as {
        structuredContent?: Record<string, unknown>;
      };
      expect(own.structuredContent?.outcome).toBe('executed');
      expect(s.enabled()).toBe(false);
    } finally {
      await asker.close();
      await other.close();
      await http.close();
    }
  });

  it('changes nothing when the person declines', async () => {
    const s = await setup();
    const args = { projectId: s.projectId, alertConfigId: s.configId, enabled: false };
    const c = confirmation(await s.t.call(TOOL, args));
    await decide(c.url, 'decline');
    const r = await s.t.call(TOOL, { ...args, approvalId: c.approvalId });
    expect(r.isError).toBe(false);
    expect(r.structured?.outcome).toBe('declined');
    expect(r.text).toMatch(/declined.*nothing changed/i);
    expect(s.enabled()).toBe(true);
    expect(s.audit().map((e) => e.outcome)).toEqual(['approval_pending', 'declined']);
  });

  it('refuses an approval for other arguments and keeps it for the approved ones', async () => {
    const s = await setup();
    const other = s.t.sim.store.data.alertConfigs.find(
      (x) => x.groupId === s.projectId && x.enabled && x.id !== s.configId,
    )!;
    const args = { projectId: s.projectId, alertConfigId: s.configId, enabled: false };
    const c = confirmation(await s.t.call(TOOL, args));
    await decide(c.url, 'approve');
    const wrong = await s.t.call(TOOL, { ...args, alertConfigId: other.id, approvalId: c.approvalId });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toContain('different tool or different arguments');
    expect(s.enabled(other.id)).toBe(true);
    const right = await s.t.call(TOOL, { ...args, approvalId: c.approvalId });
    expect(right.structured?.outcome).toBe('executed');
    expect(s.enabled()).toBe(false);
  });

  it('refuses an expired approval, even one approved in time', async () => {
    let skew = 0;
    const s = await setup({ now: () => new Date(Date.now() + skew) });
    const args = { projectId: s.projectId, alertConfigId: s.configId, enabled: false };
    const c = confirmation(await s.t.call(TOOL, args));
    await decide(c.url, 'approve');
    skew = 600_001;
    const r = await s.t.call(TOOL, { ...args, approvalId: c.approvalId });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('expired');
    expect(s.enabled()).toBe(true);
    expect(s.audit().map((e) => e.outcome)).toEqual(['approval_pending', 'confirmed', 'expired', 'rejected']);
  });

  it('opens the page and waits for the decision in the same call, with progress notifications', async () => {
    let opened = '';
    let person: Promise<unknown> = Promise.resolve();
    // The person decides once a progress notification has followed the first (the link): no wall-clock wait,
    // and without those notifications nobody decides and the call runs out of time (approval_pending).
    let progressed = () => {};
    const secondProgress = new Promise<void>((r) => (progressed = r));
    const s = await setup({
      config: { approvalOpen: true, approvalWaitMs: 10_000 },
      open: (url) => {
        opened = url;
        person = secondProgress.then(() => decide(url, 'approve'));
      },
    });
    const progress: Array<{ progress: number; message?: string }> = [];
    const r = await s.t.client.callTool(
      { name: TOOL, arguments: { projectId: s.projectId, alertConfigId: s.configId, enabled: false } },
      undefined,
      {
        onprogress: (p) => {
          progress.push(p);
          if (progress.length === 2) progressed();
        },
      },
    );
    await person;
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as Record<string, unknown>).outcome).toBe('executed');
    expect(opened).toMatch(/\/approvals\/[A-Za-z0-9_-]{24}$/);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress[0]?.message).toContain(opened);
    expect(s.enabled()).toBe(false);
  });

  it('returns the link when the wait runs out, and the call resumes later', async () => {
    const s = await setup({ config: { approvalOpen: true, approvalWaitMs: 200 }, open: () => {} });
    const args = { projectId: s.projectId, alertConfigId: s.configId, enabled: false };
    const first = await s.t.call(TOOL, args);
    expect(first.structured?.outcome).toBe('approval_pending');
    await decide(confirmation(first).url, 'decline');
    const r = await s.t.call(TOOL, { ...args, approvalId: confirmation(first).approvalId });
    expect(r.structured?.outcome).toBe('declined');
    expect(s.enabled()).toBe(true);
  });
});

describe('channel order', () => {
  it('uses elicitation when the client supports it, and no approval page', async () => {
    const s = await setup({ elicit: () => ({ action: 'accept', content: { confirm: true } }) });
    const r = await s.t.call(TOOL, { projectId: s.projectId, alertConfigId: s.configId, enabled: false });
    expect(r.structured?.outcome).toBe('executed');
    expect(s.t.elicitations).toHaveLength(1);
    expect(await s.approvals.channel.pending(ALONE)).toEqual([]);
    expect(s.enabled()).toBe(false);
  });

  it('an elicitation declined changes nothing', async () => {
    const s = await setup({ elicit: () => ({ action: 'decline' }) });
    const r = await s.t.call(TOOL, { projectId: s.projectId, alertConfigId: s.configId, enabled: false });
    expect(r.structured?.outcome).toBe('declined');
    expect(s.enabled()).toBe(true);
  });

  it('DBOPS_CONFIRM_VIA can put the approval page first even for an eliciting client', async () => {
    const s = await setup({
      elicit: () => ({ action: 'accept', content: { confirm: true } }),
      config: { confirmVia: 'approval-page,elicitation,token' },
    });
    const r = await s.t.call(TOOL, { projectId: s.projectId, alertConfigId: s.configId, enabled: false });
    expect(r.structured?.outcome).toBe('approval_pending');
    expect(s.t.elicitations).toHaveLength(0);
    expect(s.enabled()).toBe(true);
  });

  it('falls back to the token when the approval page is not enabled', async () => {
    const s = await setup({ withPage: false });
    const args = { projectId: s.projectId, alertConfigId: s.configId, enabled: false };
    const r = await s.t.call(TOOL, args);
    expect(r.structured?.outcome).toBe('confirmation_required');
    const id = await s.t.call(TOOL, { ...args, approvalId: 'AAAAAAAAAAAAAAAAAAAAAAAA' });
    expect(id.isError).toBe(true);
    expect(id.text).toContain('not enabled');
    expect(s.enabled()).toBe(true);
  });

  it('DBOPS_CONFIRM_VIA=token skips the page although it is served', async () => {
    const s = await setup({ config: { confirmVia: 'token' } });
    const r = await s.t.call(TOOL, { projectId: s.projectId, alertConfigId: s.configId, enabled: false });
    expect(confirmation(r).channel).toBe('token');
    expect(await s.approvals.channel.pending(ALONE)).toEqual([]);
  });
});
