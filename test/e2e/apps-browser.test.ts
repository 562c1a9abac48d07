// The apps (MCP Apps) in a real browser: a test host built on ext-apps' AppBridge (test/helpers/app-host*)
// embeds each app from our server's own ui:// resource, passes it the real tool result from the simulator,
// and forwards the tool calls the app asks for to our server. A press on "Acknowledge for 2 h" must arrive as
// an ordinary tools/call that stops at consent; no app may reach the network.
// Set DBOPS_SCREENSHOTS=1 to refresh the README's screenshots in docs/img/.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type ApprovalService, createApprovalService } from '../../src/approval/index.js';
import { silentLogger } from '../../src/log.js';
import { APP_DATA } from '../../src/mcp/apps.js';
import { createAuditLog } from '../../src/policy/audit.js';
import { startAppHost } from '../helpers/app-host.js';
import { type Browser, CHROMIUM, hasChromium, launchChromium } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

if (!hasChromium)
  console.warn(`MCP Apps browser tests skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);
const shots = process.env.DBOPS_SCREENSHOTS ? 'docs/img' : mkdtempSync(join(tmpdir(), 'dbops-views-'));

describe.skipIf(!hasChromium)('views (MCP Apps) in a real browser through AppBridge', () => {
  let chrome: Browser;
  let browser: BrowserContext;
  let host: Awaited<ReturnType<typeof startAppHost>>;
  let approvals: ApprovalService;
  let t: TestServer;
  let auditLog: string;
  /** Every request the browser made to anywhere but the test host: each one is a failure. */
  const offHost: string[] = [];
  /** The tools/call requests the apps asked the host for, as they were forwarded to our server. */
  const forwarded: Array<{ name: string; arguments?: Record<string, unknown> }> = [];

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbops-apps-browser-'));
    auditLog = join(dir, 'audit.log');
    approvals = createApprovalService({
      ttlMs: 600_000,
      audit: createAuditLog(auditLog, silentLogger),
      logger: silentLogger,
    });
    await approvals.listen();
    // Every change asks first (DBOPS_CONFIRM=write): acknowledging is a write.
    // A host that shows apps says so (the MCP Apps extension): only then does a result carry the app's data.
    t = await startTestServer({
      approvals: approvals.channel,
      config: { auditLog, confirm: 'write' },
      capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
    });
    host = await startAppHost();
    chrome = await launchChromium({ width: 960, height: 900 });
    browser = chrome.context;
    await browser.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(host.origin)) return route.continue();
      offHost.push(url);
      return route.abort();
    });
    await browser.exposeFunction('hostCallTool', async (params: (typeof forwarded)[number]) => {
      forwarded.push(params);
      // The host forwards what the app asked for; the app's own _meta (its progress token) stays with it.
      return t.client.callTool({ name: params.name, arguments: params.arguments });
    });
  }, 60_000);

  afterAll(async () => {
    await chrome?.close();
    await host?.close();
    await t?.close();
    await approvals?.close();
  });

  afterEach(async () => {
    for (const p of browser.pages()) await p.close();
    expect(offHost, 'requests that left the test host').toEqual([]);
  });

  /** The tool's app as a host finds it: tools/list names the ui:// resource, resources/read serves it. */
  async function viewFor(tool: string) {
    const listed = (await t.client.listTools()).tools.find((x) => x.name === tool);
    const uri = listed && getToolUiResourceUri({ _meta: listed._meta });
    expect(uri, `${tool} names a view`).toMatch(/^ui:\/\/dbops-mcp\//);
    const read = await t.client.readResource({ uri: uri! });
    const c = read.contents[0] as { text: string; mimeType: string; _meta?: { ui?: { csp?: object } } };
    expect(c.mimeType).toBe('text/html;profile=mcp-app');
    expect(c._meta?.ui?.csp).toEqual({ connectDomains: [], resourceDomains: [] });
    return { uri: uri!, html: c.text, csp: c._meta!.ui!.csp! };
  }

  async function show(
    tool: string,
    args: Record<string, unknown>,
    theme: 'light' | 'dark' = 'light',
    enforceCsp = true,
    variables?: Record<string, string>,
  ) {
    const found = await viewFor(tool);
    const view = { ...found, csp: enforceCsp ? found.csp : null, variables };
    const result = await t.client.callTool({ name: tool, arguments: args });
    const page = await browser.newPage();
    await page.emulateMedia({ colorScheme: theme });
    await page.goto(host.url);
    await page.evaluate((s) => (globalThis as any).showView(s), { ...view, result, theme });
    const frame = page.frameLocator('iframe');
    const r = result as { structuredContent?: Record<string, unknown>; _meta?: Record<string, unknown> };
    // What the app draws: the fuller copy when the model's share was shortened, else structuredContent.
    const data = (r._meta?.[APP_DATA] ?? r.structuredContent) as Record<string, unknown>;
    return { page, frame, result: r, data };
  }

  /** Chromium paints a cross-origin frame only near the viewport: the page is made as tall as the frame. */
  async function screenshot(page: Page, name: string) {
    mkdirSync(shots, { recursive: true });
    const h = await page.locator('iframe').evaluate((f) => f.getBoundingClientRect().height);
    await page.setViewportSize({ width: page.viewportSize()!.width, height: Math.ceil(h) + 32 });
    await page.locator('iframe').screenshot({ path: join(shots, `${name}.png`) });
  }

  const text = (frame: FrameLocator) => frame.locator('main').innerText();

  it('incident timeline: causes, hosts and windows on one axis; acknowledging asks the person, never executes', async () => {
    const { page, frame, result, data: s } = await show('triage_project', {});
    // The model's share of the answer is shortened (one budget with the text); the app gets all of it.
    expect(result.structuredContent!.leftOut).toBeDefined();
    expect(JSON.stringify(s).length).toBeGreaterThan(JSON.stringify(result.structuredContent).length);
    const groups = (s.alerts as { groups: Array<{ cause: string; alerts: Array<Record<string, string>> }> })
      .groups;
    expect(groups.length).toBeGreaterThan(0);
    const main = await text(frame);
    // The header names the project, not only its id.
    const project = t.sim.store.data.projects.find((p) => p.id === t.sim.projectIds[0])!;
    expect(main).toContain(`Project ${project.name} · last 24 h`);
    // Each cause by its condition, as the text answer names it; its hosts by name.
    for (const g of groups as Array<{
      conditions?: string[];
      cause: string;
      alerts: Array<Record<string, string>>;
    }>) {
      for (const c of g.conditions ?? []) expect(main).toContain(c);
      for (const a of g.alerts) if (a.hostnameAndPort) expect(main).toContain(a.hostnameAndPort);
    }
    // One mark per alert and per change, on the same axis; a shaded span per window and row.
    const alertCount = groups.reduce((n, g) => n + g.alerts.length, 0);
    await expect(frame.locator('.mark.alert').count()).resolves.toBe(alertCount);
    const changes = (s.timeline as Array<{ kind: string }>).filter((e) => e.kind === 'change').length;
    await expect(frame.locator('.mark.change').count()).resolves.toBe(changes);
    const windows = (s.maintenanceWindows as unknown[]).length;
    expect(windows).toBeGreaterThan(0);
    await expect(frame.locator('.track').first().locator('.span').count()).resolves.toBe(windows);
    // The story reads newest first: today's alerts and changes before last week's.
    const story = await frame.locator('.story li').allInnerTexts();
    const times = story.map((l) => l.slice(0, 16));
    expect(times).toEqual([...times].sort().reverse());
    await screenshot(page, 'incident-timeline-light');

    // Keyboard only: focus the first host, Enter shows its details, Enter on the button acknowledges.
    const first = groups.find(
      (g) => !g.cause.endsWith('(global)') && g.alerts.some((a) => !a.acknowledgedUntil),
    )!;
    const alert = first.alerts.find((a) => !a.acknowledgedUntil)!;
    // The platform's record as it stands before (a lapsed acknowledgement stays in the record, not in the app).
    const stored = t.sim.store.data.alerts.find((a) => a.id === alert.id)!.acknowledgedUntil;
    const hostButton = frame.getByRole('button', { name: new RegExp(`^${alert.hostnameAndPort}`) }).first();
    await hostButton.focus();
    await page.keyboard.press('Enter');
    await expect(frame.locator('.details h2').innerText()).resolves.toContain(alert.hostnameAndPort);
    // Its id is there for a follow-up question, folded away under "Ids".
    await expect(frame.locator('.details details.ids').textContent()).resolves.toContain(alert.id);
    const ack = frame.getByRole('button', { name: 'Acknowledge for 2 h' });
    await ack.focus();
    await page.keyboard.press('Enter');
    await frame.locator('.consent').waitFor();
    expect(forwarded.at(-1)).toMatchObject({
      name: 'acknowledge_alert',
      arguments: { projectId: s.projectId, alertId: alert.id, forHours: 2 },
    });
    const card = await frame.locator('.consent').innerText();
    expect(card).toContain('Approval needed — nothing has changed yet');
    expect(card).toContain('cannot approve');
    // The app offers the page; it has nothing that approves.
    await expect(frame.getByRole('button', { name: /approve/i }).count()).resolves.toBe(0);
    await frame.getByRole('link', { name: 'Open the approval page' }).click();
    expect(await page.evaluate(() => (globalThis as any).openedLinks)).toEqual([
      expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/approvals\//),
    ]);
    // It reached the server, was previewed and audited, and changed nothing on the platform.
    const rec = t.sim.store.data.alerts.find((a) => a.id === alert.id)!;
    expect(rec.acknowledgedUntil).toBe(stored);
    const audited = readFileSync(auditLog, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(audited.filter((e) => e.tool === 'acknowledge_alert').map((e) => e.outcome)).toEqual([
      'approval_pending',
    ]);
    mkdirSync(shots, { recursive: true });
    await frame.locator('.details').screenshot({ path: join(shots, 'consent-card-light.png') });
  });

  it('incident timeline: an alert acknowledged for longer offers no 2-hour acknowledgement that would shorten it', async () => {
    const { frame, data: s } = await show('triage_project', {});
    const groups = (s.alerts as { groups: Array<{ alerts: Array<Record<string, string>> }> }).groups;
    const later = Date.now() + 3 * 3_600_000;
    const long = groups
      .flatMap((g) => g.alerts)
      .find((a) => a.acknowledgedUntil && Date.parse(a.acknowledgedUntil) > later && a.hostnameAndPort)!;
    expect(long, 'the demo data holds an alert acknowledged for hours').toBeDefined();
    const others = groups.flatMap((g) => g.alerts).filter((a) => a.hostnameAndPort === long.hostnameAndPort);
    const index = others.indexOf(long);
    await frame
      .getByRole('button', { name: new RegExp(`^${long.hostnameAndPort} \\(acknowledged\\)`) })
      .nth(others.filter((a, i) => i < index && a.acknowledgedUntil).length)
      .click();
    await expect(frame.locator('.details details.ids').textContent()).resolves.toContain(long.id);
    await expect(frame.getByRole('button', { name: 'Acknowledge for 2 h' }).count()).resolves.toBe(0);
    await expect(frame.locator('.details').innerText()).resolves.toContain('would shorten it');
  });

  it('incident timeline follows the host theme (dark)', async () => {
    const { page, frame } = await show('triage_project', {}, 'dark');
    await frame.locator('.mark').first().waitFor();
    const bg = await frame
      .locator('body')
      .evaluate((b) => (globalThis as any).getComputedStyle(b).backgroundColor);
    expect(bg).toBe('rgb(17, 24, 39)');
    await expect(frame.locator('html').getAttribute('data-theme')).resolves.toBe('dark');
    await screenshot(page, 'incident-timeline-dark');
  });

  it("takes the host's own colours when the host context gives its CSS variables", async () => {
    const { frame } = await show('triage_project', {}, 'dark', true, {
      '--color-background-primary': 'rgb(1, 2, 3)',
      '--color-text-danger': 'rgb(200, 0, 100)',
    });
    await frame.locator('.mark.alert').first().waitFor();
    const bg = await frame
      .locator('body')
      .evaluate((b) => (globalThis as any).getComputedStyle(b).backgroundColor);
    expect(bg).toBe('rgb(1, 2, 3)');
    const mark = await frame
      .locator('.mark.alert:not(.acked)')
      .first()
      .evaluate((b) => (globalThis as any).getComputedStyle(b).backgroundColor);
    expect(mark).toBe('rgb(200, 0, 100)');
  });

  it('maintenance planner: the windows with what they mute, a proposed window with its overlap', async () => {
    const listed = await show('list_maintenance_windows', {});
    const windows = listed.result.structuredContent!.results as Array<Record<string, unknown>>;
    expect(windows.length).toBeGreaterThan(0);
    const main = await text(listed.frame);
    for (const w of windows) {
      expect(main).toContain(String(w.description));
      expect(main).toContain(`mutes ${(w.alertTypeNames as string[]).join(', ')}`);
    }
    await expect(listed.frame.locator('.span:not(.proposed)').count()).resolves.toBeGreaterThanOrEqual(
      windows.length,
    );
    await screenshot(listed.page, 'maintenance-planner-light');

    // A window proposed over the one in force: drawn with its overlap, waiting for consent.
    const w = windows[0]!;
    const start = new Date(Date.parse(String(w.endDate)) - 3_600_000).toISOString();
    const end = new Date(Date.parse(String(w.endDate)) + 2 * 3_600_000).toISOString();
    const before = forwarded.length;
    const { page, frame } = await show(
      'create_maintenance_window',
      { startDate: start, endDate: end, alertTypeNames: ['HOST', 'BACKUP'], description: 'Disk swap' },
      'dark',
    );
    await frame.locator('.span.overlap').waitFor();
    const planned = await text(frame);
    expect(planned).toContain('Proposed window');
    expect(planned).toContain(`Overlaps "${w.description}"`);
    expect(planned).toContain('HOST already muted there');
    expect(planned).toContain('Would mute HOST, BACKUP notifications for 3 h');
    expect(planned).toContain('Approval needed — nothing has changed yet');
    // The windows already there were read through the host (a read: no consent involved).
    expect(forwarded.slice(before).map((f) => f.name)).toEqual(['list_maintenance_windows']);
    expect(t.sim.store.data.maintenanceWindows.some((x) => x.description === 'Disk swap')).toBe(false);
    await screenshot(page, 'maintenance-planner-dark');
  });

  it('consent card: a guarded delete as a card with the approval link; platform text stays text', async () => {
    const projectId = t.sim.projectIds[0]!;
    // A description written to look like markup: it must show as these characters, and load nothing.
    const created = await t.sim.store.data.maintenanceWindows.find((x) => x.groupId === projectId)!;
    const original = created.description;
    created.description = '<img src="https://example.invalid/x.png"> <b>patching</b>';
    try {
      // Without a CSP in the way: markup rendered as HTML would fetch the image, and the route guard sees it.
      const { page, frame, result } = await show(
        'delete_maintenance_window',
        { projectId, maintenanceWindowId: created.id },
        'dark',
        false,
      );
      expect(result.structuredContent!.outcome).toBe('approval_pending');
      const card = await frame.locator('.consent').innerText();
      expect(card).toContain('Approval needed — nothing has changed yet');
      expect(card).toContain('<img src="https://example.invalid/x.png"> <b>patching</b>');
      expect(card).toMatch(/Affected[\s\S]*project/);
      await expect(frame.locator('.consent img, .consent b').count()).resolves.toBe(0);
      await expect(frame.getByRole('link', { name: 'Open the approval page' }).count()).resolves.toBe(1);
      await screenshot(page, 'consent-card-dark');
    } finally {
      created.description = original;
    }
  });
});
