// The apps as a person reads them at any width and any scale (issue 33): each app through a real MCP Apps
// host (AppBridge, sandboxed iframe, Chromium) in a 360 px and a 1000 px panel, light and dark, on the demo
// data and on 100× the demo data. At every one: no sideways scrolling, axis labels that neither overlap nor
// leave the panel, text cut short only where its whole is on hover, the newest urgent item present, names where
// the platform has ids (no bare 24-hex id in the visible text) and one time format with its zone.
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';
import { EXTENSION_ID, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { BrowserContext, FrameLocator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator } from '../../src/simulator/index.js';
import { scaleStore } from '../clients/scale.js';
import { startAppHost } from '../helpers/app-host.js';
import { type Browser, CHROMIUM, hasChromium, launchChromium } from '../helpers/browser.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

if (!hasChromium)
  console.warn(`MCP Apps layout tests skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`);

type Sim = Awaited<ReturnType<typeof startSimulator>>;
/** The host page's own padding around the app's iframe (test/helpers/app-host.ts). */
const PAD = 16;
/** Where each case's picture goes, to look at; DBOPS_SCREENSHOTS=1 also refreshes the README's phone-width ones. */
const shots = mkdtempSync(join(tmpdir(), 'dbops-views-layout-'));
const DOCS: Record<string, string> = {
  'timeline-1x-360-light': 'incident-timeline-phone-light',
  'timeline-100x-1000-dark': 'incident-timeline-100x-dark',
  'planner-1x-360-dark': 'maintenance-planner-phone-dark',
};
const HEX_ID = /\b[0-9a-f]{24}\b/i;
/** A time as the apps write them: "2026-11-26 08:17 UTC" (date, time, the zone's short name). */
const ONE_FORM = /^\d{4}-\d\d-\d\d \d\d:\d\d (UTC|GMT[+-]\d{1,2}(:\d\d)?|[A-Z]{2,5})$/;

/** Every time-looking piece of a text: each must be in the one form. */
function times(text: string): string[] {
  return [
    ...text.matchAll(
      /(\d{4}-\d\d-\d\d[ T])?\d\d:\d\d(:\d\d(\.\d+)?)?Z?( (UTC|GMT[+-]\d{1,2}(:\d\d)?|[A-Z]{2,5}))?/g,
    ),
  ].map((m) => m[0]);
}

describe.skipIf(!hasChromium)('views at 360 and 1000 px, light and dark, demo and 100× data', () => {
  let chrome: Browser;
  let browser: BrowserContext;
  let host: Awaited<ReturnType<typeof startAppHost>>;
  const offHost: string[] = [];
  const servers = new Map<number, { sim: Sim; t: TestServer }>();

  beforeAll(async () => {
    for (const times of [1, 100]) {
      const sim = await startSimulator({ dataset: 'demo', port: 0 });
      scaleStore(sim.store, times);
      const dir = mkdtempSync(join(tmpdir(), 'dbops-apps-layout-'));
      const t = await startTestServer({
        sim,
        config: { auditLog: join(dir, 'audit.log'), confirm: 'write' },
        capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } },
      });
      servers.set(times, { sim, t });
    }
    host = await startAppHost();
    chrome = await launchChromium({ width: 1000 + 2 * PAD, height: 900 });
    browser = chrome.context;
    await browser.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(host.origin)) return route.continue();
      offHost.push(url);
      return route.abort();
    });
    // A app that reads more (the planner reads the windows already there) asks the host; the host asks the
    // server of the page's scale.
    await browser.exposeBinding(
      'hostCallTool',
      async ({ page }, params: { name: string; arguments?: object }) => {
        const scale = Number(new URL(page.url()).hash.slice(1)) || 1;
        return servers.get(scale)!.t.client.callTool({
          name: params.name,
          arguments: params.arguments as Record<string, unknown>,
        });
      },
    );
  }, 120_000);

  afterAll(async () => {
    await chrome?.close();
    await host?.close();
    for (const { sim, t } of servers.values()) {
      await t.close();
      await sim.close();
    }
    expect(offHost, 'requests that left the test host').toEqual([]);
  });

  /** The one page every case draws in (the host page is loaded once; each app replaces the last one's frame). */
  let shared: Page | undefined;
  let shownScale = 0;
  /** Each tool's app resource, read once per scale. */
  const resources = new Map<string, Promise<{ text: string; _meta: { ui: { csp: object } } }>>();

  function resourceOf(scale: number, tool: string) {
    const key = `${scale} ${tool}`;
    let found = resources.get(key);
    if (!found) {
      const { t } = servers.get(scale)!;
      found = (async () => {
        const listed = (await t.client.listTools()).tools.find((x) => x.name === tool);
        const uri = getToolUiResourceUri({ _meta: listed!._meta })!;
        const read = await t.client.readResource({ uri });
        return read.contents[0] as unknown as { text: string; _meta: { ui: { csp: object } } };
      })();
      resources.set(key, found);
    }
    return found;
  }

  async function show(
    scale: number,
    tool: string,
    args: Record<string, unknown>,
    width: number,
    theme: 'light' | 'dark',
    context: Record<string, unknown> = {},
  ): Promise<{ page: Page; frame: FrameLocator }> {
    const { t } = servers.get(scale)!;
    const c = await resourceOf(scale, tool);
    const result = await t.client.callTool({ name: tool, arguments: args });
    if (!shared) {
      shared = await browser.newPage();
      await shared.goto(host.url);
    }
    const page = shared;
    // The host asks the server of the page's scale (the hash): set without reloading the page.
    if (shownScale !== scale) {
      await page.evaluate((n) => {
        (globalThis as any).location.hash = `#${n}`;
      }, scale);
      shownScale = scale;
    }
    await page.setViewportSize({ width: width + 2 * PAD, height: 900 });
    await page.emulateMedia({ colorScheme: theme });
    await page.evaluate((s) => (globalThis as any).showView(s), {
      html: c.text,
      csp: c._meta.ui.csp,
      result,
      theme,
      context: { containerDimensions: { maxWidth: width }, ...context },
    });
    const frame = page.frameLocator('iframe');
    await frame.locator('main > *').first().waitFor();
    return { page, frame };
  }

  /**
   * A picture of the whole app: Chromium paints a cross-origin frame only near the page's viewport, so the
   * page is made as tall as the frame first.
   */
  async function picture(page: Page, name: string) {
    const h = await page.locator('iframe').evaluate((f) => f.getBoundingClientRect().height);
    const w = page.viewportSize()!.width;
    await page.setViewportSize({ width: w, height: Math.ceil(h) + 2 * PAD });
    await page.locator('iframe').screenshot({ path: join(shots, `${name}.png`) });
    const doc = DOCS[name];
    if (doc && process.env.DBOPS_SCREENSHOTS) copyFileSync(join(shots, `${name}.png`), `docs/img/${doc}.png`);
  }

  /** What every app must hold at every width: the issue's measures. */
  async function check(page: Page, frame: FrameLocator, width: number, zone = 'UTC'): Promise<string> {
    await expect(page.locator('iframe').evaluate((f) => f.getBoundingClientRect().width)).resolves.toBe(
      width,
    );
    const layout = await frame.locator('body').evaluate((body) => {
      const doc = body.ownerDocument;
      const view = doc.documentElement.clientWidth;
      const out: string[] = [];
      if (doc.documentElement.scrollWidth > view)
        out.push(`page scrolls sideways: ${doc.documentElement.scrollWidth} > ${view}`);
      const win = doc.defaultView!;
      for (const e of body.querySelectorAll<any>('main *')) {
        const r = e.getBoundingClientRect();
        if (!r.width || win.getComputedStyle(e).visibility === 'hidden') continue;
        if (r.right > view + 0.5 || r.left < -0.5)
          out.push(
            `${e.className || e.tagName} "${e.textContent?.slice(0, 40)}" leaves the panel (${Math.round(r.left)}–${Math.round(r.right)} of ${view})`,
          );
        const cut =
          e.scrollWidth > e.clientWidth + 1 && /hidden|clip/.test(win.getComputedStyle(e).overflowX);
        if (cut && e.children.length === 0 && !e.title && !e.closest('[title]'))
          out.push(`"${e.textContent?.slice(0, 40)}" is cut short with no full text on hover`);
      }
      // Axis labels: none over another.
      for (const row of body.querySelectorAll('.ticks')) {
        const boxes = [...row.querySelectorAll('.tick')].map((t) => t.getBoundingClientRect());
        for (let i = 1; i < boxes.length; i++)
          if (boxes[i]!.left < boxes[i - 1]!.right + 2)
            out.push(
              `axis labels overlap: ${[...row.querySelectorAll('.tick')].map((t) => t.textContent).join(' | ')}`,
            );
      }
      return out;
    });
    expect(layout).toEqual([]);
    const text = await frame.locator('main').innerText();
    expect(text, 'a bare id in the visible text').not.toMatch(HEX_ID);
    const found = times(text);
    for (const t of found) expect(t, `times in one form: ${found.join(' | ')}`).toMatch(ONE_FORM);
    for (const t of found) expect(t.endsWith(` ${zone}`), `${t} in ${zone}`).toBe(true);
    return text;
  }

  for (const scale of [1, 100])
    for (const width of [360, 1000])
      for (const theme of ['light', 'dark'] as const)
        describe(`${scale}× data, ${width} px, ${theme}`, () => {
          const data = () => servers.get(scale)!.sim.store.data;
          const projectId = () => servers.get(scale)!.sim.projectIds[0]!;
          const project = () => data().projects.find((p) => p.id === projectId())!;
          const inForce = () =>
            data().maintenanceWindows.find(
              (w) =>
                w.groupId === projectId() &&
                Date.parse(w.startDate) <= Date.now() &&
                Date.parse(w.endDate) > Date.now(),
            )!;

          it('incident timeline: the newest urgent alert and the newest change are there, named', async () => {
            const { page, frame } = await show(scale, 'triage_project', {}, width, theme);
            const text = await check(page, frame, width);
            await picture(page, `timeline-${scale}x-${width}-${theme}`);
            const open = data()
              .alerts.filter((a) => a.groupId === projectId() && ['OPEN', 'TRACKING'].includes(a.status))
              .filter((a) => !a.acknowledgedUntil || Date.parse(a.acknowledgedUntil) < Date.now())
              .sort((a, b) => Date.parse(b.created) - Date.parse(a.created));
            const newest = open[0]!;
            expect(text).toContain(newest.hostnameAndPort!);
            expect(text).toContain(newest.eventTypeName);
            const changes = await frame.locator('.story li').allInnerTexts();
            expect(
              changes.some((l) => / changed /.test(l)),
              'the changes are there',
            ).toBe(true);
            expect(text).toContain(project().name);
            // The whole picture: counts, automation, agents, the window by its description.
            expect(text).toMatch(/\d+ open/);
            expect(text).toMatch(/Automation\s+\S/);
            expect(text).toMatch(/Agents\s+\S/);
            expect(text).toContain(inForce().description);
            if (scale > 1) expect(text).toMatch(/Left out: .* ask the assistant/);
          });

          it('maintenance planner: the window in force by its description; the update keeps the window it changes', async () => {
            const listed = await show(scale, 'list_maintenance_windows', {}, width, theme);
            const text = await check(listed.page, listed.frame, width);
            expect(text).toContain(inForce().description);
            const w = inForce();
            const end = new Date(Date.parse(w.endDate) + 4 * 3_600_000).toISOString();
            const { page, frame } = await show(
              scale,
              'update_maintenance_window',
              { maintenanceWindowId: w.id, endDate: end, description: 'Patching, extended' },
              width,
              theme,
            );
            await frame.locator('.row.proposed').waitFor();
            const planned = await check(page, frame, width);
            await picture(page, `planner-${scale}x-${width}-${theme}`);
            expect(planned).toContain(`Now: ${w.description}`);
            expect(planned).toContain('Proposed: Patching, extended');
            expect(planned).toContain(project().name);
          });

          it('consent card: the window and the project by name, times in one form', async () => {
            const w = inForce();
            const { page, frame } = await show(
              scale,
              'delete_maintenance_window',
              { projectId: projectId(), maintenanceWindowId: w.id },
              width,
              theme,
            );
            const text = await check(page, frame, width);
            await picture(page, `consent-${scale}x-${width}-${theme}`);
            expect(text).toContain(w.description);
            expect(text).toContain(project().name);
          });
        });

  it('empty states say what was checked: no heading stands over nothing, in any demo project', async () => {
    const { sim } = servers.get(1)!;
    // One project made quiet: no open alert, no event (the others keep theirs; the tests above are done).
    const quiet = sim.projectIds.at(-1)!;
    const d = sim.store.data;
    d.alerts = d.alerts.filter((a) => a.groupId !== quiet);
    d.events = d.events.filter((e) => e.groupId !== quiet);
    d.globalAlerts = d.globalAlerts.filter((a) => a.groupId !== quiet);
    let empty = 0;
    for (const projectId of sim.projectIds) {
      const { page, frame } = await show(1, 'triage_project', { projectId }, 360, 'light');
      const text = await check(page, frame, 360);
      const stories = await frame.locator('.story li').count();
      if (stories === 0) {
        empty += 1;
        expect(text).not.toContain('what broke and what changed');
        expect(text).toMatch(
          /Nothing changed and nothing broke in the last 24 h: checked the project's events/,
        );
      }
      if ((await frame.locator('.row.cause').count()) === 0)
        expect(text).toMatch(/No open alerts: checked the open alerts of /);
    }
    expect(empty, 'the quiet project shows its empty states').toBeGreaterThan(0);
  });

  it('at 100× data the timeline counts distinct things: a host once per cause with its count, agents by host, a change once', async () => {
    const { sim } = servers.get(100)!;
    const d = sim.store.data;
    const projectId = sim.projectIds[0]!;
    // A change 5 min ago, newer than every break, copied 100 times as the rest: its repeats come first in the
    // story, newest first, and must not push the last hour's breaks out of the app's copy.
    const publish = d.events.find(
      (e) => e.groupId === projectId && e.eventTypeName === 'AUTOMATION_CONFIG_PUBLISHED_AUDIT',
    )!;
    const recent = new Date(Date.now() - 5 * 60_000).toISOString();
    for (let i = 0; i < 100; i++)
      d.events.push({ ...publish, id: `${'e'.repeat(16)}${String(i).padStart(8, '0')}`, created: recent });
    const { frame } = await show(100, 'triage_project', {}, 1000, 'light');
    // (a) A host repeated in a cause is one chip with a count.
    const strips = await frame.locator('.hosts').evaluateAll((ss) =>
      ss.map((s) => ({
        cause: s.getAttribute('aria-label') ?? '',
        chips: [...s.querySelectorAll('.host')].map((c) => c.textContent ?? ''),
      })),
    );
    expect(strips.length).toBeGreaterThan(0);
    for (const { cause, chips } of strips) {
      const hosts = chips.map((c) => c.replace(/ ×\d+.*$| \(.*$/, ''));
      expect(new Set(hosts).size, `${cause}: ${chips.join(' | ')}`).toBe(hosts.length);
    }
    const agentDown = d.alerts.filter(
      (a) => a.groupId === projectId && a.eventTypeName === 'MONITORING_AGENT_DOWN' && a.status === 'OPEN',
    );
    const agentHosts = new Set(agentDown.map((a) => a.hostnameAndPort));
    expect(agentDown.length).toBe(100 * agentHosts.size);
    const agentStrip = strips.find((x) => x.cause.includes('MONITORING_AGENT_DOWN'))!;
    expect(agentStrip.chips).toEqual([...agentHosts].map((h) => `${h} ×100`));
    // (b) Counts count distinct things: one agent's host copied 100 times is one agent down, in 100 alerts.
    const text = await frame.locator('main').innerText();
    expect(text).toMatch(new RegExp(`Agents\\s+${agentHosts.size} monitoring agents? down`));
    expect(text).not.toMatch(/100 monitoring agents down/);
    // (c) The story keeps every break of the last hour, and no change twice: repeats are collapsed first.
    const story = await frame.locator('.story li').allInnerTexts();
    const lastHour = Date.now() - 3_600_000;
    const broke = [...d.alerts, ...d.globalAlerts].filter(
      (a) => a.groupId === projectId && a.status === 'OPEN' && Date.parse(a.created) > lastHour,
    );
    expect(broke.length).toBeGreaterThan(0);
    for (const a of broke)
      expect(
        story.some(
          (l) => l.includes('broke:') && l.includes(a.eventTypeName) && l.includes(a.hostnameAndPort!),
        ),
        `${a.eventTypeName} on ${a.hostnameAndPort} in: ${story.join(' / ')}`,
      ).toBe(true);
    const changes = story.filter((l) => l.includes(' changed '));
    const bare = changes.map((l) => l.replace(/ \(×\d+\)$/, ''));
    expect(new Set(bare).size, changes.join(' / ')).toBe(bare.length);
    const published = changes.filter((l) => l.includes('AUTOMATION_CONFIG_PUBLISHED_AUDIT'));
    expect(published.length, story.join(' / ')).toBeGreaterThan(0);
    for (const l of published) expect(l).toMatch(/\(×100\)$/);
  });

  it("times in the host's time zone when the host gives one", async () => {
    const { page, frame } = await show(1, 'triage_project', {}, 1000, 'light', { timeZone: 'Europe/Berlin' });
    const text = await check(page, frame, 1000, 'CET');
    expect(times(text).length).toBeGreaterThan(3);
  });
});
