// The approval page in a real browser (Debian's chromium driven by playwright-core): a person opens the
// link a guarded call returned, reads the preview, clicks Approve or Decline, and the resumed call does (or
// does not) change the platform. A cross-site form and an expired approval must change nothing.
// Set DBOPS_SCREENSHOT=docs/approval-page.png to refresh the documentation's screenshot.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { type ApprovalService, createApprovalService } from '../../src/approval/index.js';
import { silentLogger } from '../../src/log.js';
import { createAuditLog } from '../../src/policy/audit.js';
import { CHROMIUM, hasChromium, withChromium } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

if (!hasChromium)
  console.warn(
    `approval browser tests skipped: ${CHROMIUM} is absent (install it with: apt-get install -y chromium)`,
  );

const TOOL = 'set_alert_config_enabled';

describe.skipIf(!hasChromium)('approval page in a real browser', () => {
  const chromium = withChromium();
  const open: Array<{ close(): Promise<void> }> = [];

  afterEach(async () => {
    for (const p of chromium().pages()) await p.close();
    for (const o of open.splice(0).reverse()) await o.close();
  });

  async function setup(now?: () => Date) {
    const dir = mkdtempSync(join(tmpdir(), 'dbops-approval-browser-'));
    const auditLog = join(dir, 'audit.log');
    const approvals: ApprovalService = createApprovalService({
      ttlMs: 600_000,
      audit: createAuditLog(auditLog, silentLogger),
      logger: silentLogger,
      now,
    });
    open.push(approvals);
    await approvals.listen();
    const t: TestServer = await startTestServer({ approvals: approvals.channel, config: { auditLog } });
    open.push(t);
    const projectId = t.sim.projectIds[0]!;
    const config = t.sim.store.data.alertConfigs.find((c) => c.groupId === projectId && c.enabled)!;
    const args = { projectId, alertConfigId: config.id, enabled: false };
    const first = await t.call(TOOL, args);
    const c = first.structured?.confirmation as { approvalId: string; url: string };
    expect(c.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/approvals\/[A-Za-z0-9_-]{24}$/);
    const enabled = () => t.sim.store.data.alertConfigs.find((x) => x.id === config.id)?.enabled;
    const resume = () => t.call(TOOL, { ...args, approvalId: c.approvalId });
    const audit = () => readFileSync(auditLog, 'utf8');
    return { t, approvals, config, c, enabled, resume, audit };
  }

  async function visit(url: string): Promise<Page> {
    const page = await chromium().newPage();
    const res = await page.goto(url);
    expect(res?.status()).toBe(200);
    return page;
  }

  /** Submits the page's form and waits until the browser shows the answer (after any redirect). */
  async function submit(page: Page, button: string): Promise<number> {
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.getByRole('button', { name: button }).click(),
    ]);
    await page.waitForLoadState();
    return response.status();
  }

  it('shows the preview; Approve lets the resumed call execute it', async () => {
    const s = await setup();
    const page = await visit(s.c.url);
    await expect(page.title()).resolves.toContain('Enable or disable an alert configuration');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('Approve this change?');
    expect(await page.locator('.action').innerText()).toMatch(
      new RegExp(`^Disable alert configuration \`[^\`]+\` \\(${s.config.id}\\)$`),
    );
    const row = page.getByRole('row', { name: /enabled/ });
    expect(await row.innerText()).toMatch(/enabled\s+yes\s+no/);
    expect(await page.locator('pre').innerText()).toContain(`"alertConfigId": "${s.config.id}"`);
    expect(await page.locator('main').innerText()).toMatch(/\d+ min( \d+ s)? left/);
    expect(await page.locator('main').innerText()).toContain('raises no alerts');
    // No script can run on the page: it works without JavaScript by construction.
    expect(await page.locator('script').count()).toBe(0);

    if (process.env.DBOPS_SCREENSHOT) {
      await page.setViewportSize({ width: 720, height: 900 });
      await page.screenshot({ path: process.env.DBOPS_SCREENSHOT, fullPage: true });
    }

    // Phone width: nothing overflows sideways, the buttons stay large enough to tap.
    await page.setViewportSize({ width: 375, height: 740 });
    expect(Number(await page.evaluate('document.documentElement.scrollWidth'))).toBeLessThanOrEqual(375);
    const approve = page.getByRole('button', { name: 'Approve' });
    expect((await approve.boundingBox())?.height).toBeGreaterThanOrEqual(44);

    expect(s.enabled()).toBe(true);
    const before = await s.resume();
    expect(before.text).toContain('still pending');

    await approve.focus();
    const [posted] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST'),
      page.keyboard.press('Enter'), // the keyboard works as well as a pointer
    ]);
    expect(posted.status()).toBe(303);
    await page.waitForLoadState();
    expect(page.url()).toBe(s.c.url);
    expect(await page.getByRole('status').innerText()).toContain('Approved.');
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(s.enabled()).toBe(true);

    const done = await s.resume();
    expect(done.isError).toBe(false);
    expect(done.structured?.outcome).toBe('executed');
    expect(s.enabled()).toBe(false);
    expect((await s.resume()).text).toContain('already used');
    await page.reload();
    expect(await page.getByRole('status').innerText()).toContain('the change has been applied');
  });

  it('Decline leaves the platform unchanged', async () => {
    const s = await setup();
    const snapshot = JSON.stringify(s.t.sim.store.data.alertConfigs);
    const page = await visit(s.c.url);
    expect(await submit(page, 'Decline')).toBe(303);
    expect(await page.getByRole('status').innerText()).toContain('Declined. Nothing will change.');
    const r = await s.resume();
    expect(r.structured?.outcome).toBe('declined');
    expect(r.text).toMatch(/nothing changed/);
    expect(JSON.stringify(s.t.sim.store.data.alertConfigs)).toBe(snapshot);
    expect(s.audit()).toContain('"outcome":"declined"');
  });

  it('refuses a cross-site form POST, even one that knows the form secret', async () => {
    const s = await setup();
    const page = await visit(s.c.url); // the person has the page open: the browser holds its cookie
    const secret = await page.locator('input[name=csrf]').getAttribute('value');
    const evil: Server = createServer((_req, res) => {
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(
          `<!doctype html><title>prize</title><form method="post" action="${s.c.url}">` +
            `<input type="hidden" name="csrf" value="${secret}"><input type="hidden" name="decision" value="approve">` +
            `<button type="submit">Claim your prize</button></form>`,
        );
    });
    await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
    open.push({
      close: () => {
        evil.closeAllConnections();
        return new Promise<void>((r) => evil.close(() => r()));
      },
    });
    const attacker = await chromium().newPage();
    await attacker.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`);
    const [response] = await Promise.all([
      attacker.waitForResponse((r) => r.url() === s.c.url),
      attacker.getByRole('button', { name: 'Claim your prize' }).click(),
    ]);
    expect(response.status()).toBe(403);
    expect(await attacker.locator('main').innerText()).toContain('did not come from the approval page');
    expect((await s.approvals.channel.get(s.c.approvalId))?.state).toBe('pending');
    expect((await s.resume()).text).toContain('still pending');
    expect(s.enabled()).toBe(true);
  });

  it('an expired approval cannot be approved', async () => {
    let skew = 0;
    const s = await setup(() => new Date(Date.now() + skew));
    const page = await visit(s.c.url);
    skew = 600_001; // ten minutes pass while the page stays open
    expect(await submit(page, 'Approve')).toBe(409);
    expect(await page.locator('main').innerText()).toContain('already expired');
    expect((await s.approvals.channel.get(s.c.approvalId))?.state).toBe('expired');
    const r = await s.resume();
    expect(r.isError).toBe(true);
    expect(r.text).toContain('expired');
    expect(s.enabled()).toBe(true);
    expect(s.audit()).toContain('"outcome":"expired"');
  });
});
