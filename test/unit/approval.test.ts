import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { browserCommand } from '../../src/approval/open.js';
import { approvalPage, diffRows, esc, listPage, timeLeft } from '../../src/approval/page.js';
import { type ApprovalStore, createApprovalStore } from '../../src/approval/store.js';
import { redactPreview } from '../../src/format/consent.js';
import { silentLogger } from '../../src/log.js';
import { createAuditLog } from '../../src/policy/audit.js';

/** This machine's user alone: no identity configured, every request theirs. */
const ALONE = { person: 'local', approver: false, alone: true };

const preview = {
  action: 'Disable alert configuration abc',
  target: { project: 'p1', alertConfigId: 'abc' },
  current: { enabled: true, apiKey: 'sk-live-1234567890abcd' },
  changes: [{ field: 'enabled', from: true, to: false }],
  notes: ['While disabled, this configuration raises no alerts.'],
};

let clock = new Date('2026-11-21T10:00:00Z');
const stores: ApprovalStore[] = [];

function setup(ttlMs = 600_000) {
  const dir = mkdtempSync(join(tmpdir(), 'dbops-approval-'));
  const file = join(dir, 'audit.log');
  const store = createApprovalStore({
    ttlMs,
    audit: createAuditLog(file, silentLogger),
    origin: () => 'http://127.0.0.1:4000',
    now: () => clock,
    tickMs: 20,
  });
  stores.push(store);
  const audit = () =>
    readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { store, audit };
}

const req = (over: Partial<{ tool: string; hash: string }> = {}) => ({
  tool: 'set_alert_config_enabled',
  title: 'Enable or disable an alert configuration',
  hash: 'h1',
  args: { alertConfigId: 'abc', enabled: false, apiKey: 'sk-live-1234567890abcd' },
  preview,
  ...over,
});

afterEach(() => {
  vi.useRealTimers();
  for (const s of stores.splice(0)) s.close();
  clock = new Date('2026-11-21T10:00:00Z');
});

describe('approval store', () => {
  it('creates unguessable ids with a URL on the origin and an expiry', async () => {
    const { store } = setup();
    const a = await store.create(req());
    const b = await store.create(req());
    expect(a.approvalId).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(a.approvalId).not.toBe(b.approvalId);
    expect(a.url).toBe(`http://127.0.0.1:4000/approvals/${a.approvalId}`);
    expect(a.expiresAt.getTime() - clock.getTime()).toBe(600_000);
    const rec = (await store.get(a.approvalId))!;
    expect(rec.secret).not.toBe(rec.id);
    expect(JSON.stringify(rec)).not.toContain('sk-live-1234567890abcd');
  });

  it('executes an approval once, for the same tool and arguments only, and audits the decision', async () => {
    const { store, audit } = setup();
    const { approvalId } = await store.create(req());
    const secret = (await store.get(approvalId))!.secret;
    expect((await store.take(approvalId, 'set_alert_config_enabled', 'h1')).state).toBe('pending');
    expect(await store.decide(approvalId, 'approve', 'wrong-secret', ALONE)).toBe('forbidden');
    expect(await store.decide(approvalId, 'approve', secret, ALONE)).toBe('approved');
    expect(await store.decide(approvalId, 'decline', secret, ALONE)).toBe('approved');
    expect((await store.take(approvalId, 'set_alert_config_enabled', 'other')).state).toBe('mismatch');
    expect((await store.take(approvalId, 'other_tool', 'h1')).state).toBe('mismatch');
    expect((await store.take(approvalId, 'set_alert_config_enabled', 'h1')).state).toBe('approved');
    expect((await store.take(approvalId, 'set_alert_config_enabled', 'h1')).state).toBe('used');
    expect((await store.take('nope', 'set_alert_config_enabled', 'h1')).state).toBe('unknown');
    expect(audit()).toMatchObject([{ outcome: 'confirmed', approvalId, channel: 'approval-page' }]);
    expect(JSON.stringify(audit())).not.toContain('sk-live-1234567890abcd');
  });

  it('declines for good', async () => {
    const { store, audit } = setup();
    const { approvalId } = await store.create(req());
    expect(await store.decide(approvalId, 'decline', (await store.get(approvalId))!.secret, ALONE)).toBe(
      'declined',
    );
    expect((await store.take(approvalId, 'set_alert_config_enabled', 'h1')).state).toBe('declined');
    expect(await store.pending(ALONE)).toEqual([]);
    expect(audit()).toMatchObject([{ outcome: 'declined', approvalId }]);
  });

  it('expires pending and approved-but-unused approvals, and audits the expiry', async () => {
    const { store, audit } = setup();
    const one = await store.create(req());
    const two = await store.create(req());
    await store.decide(two.approvalId, 'approve', (await store.get(two.approvalId))!.secret, ALONE);
    clock = new Date(clock.getTime() + 600_000);
    expect(
      await store.decide(one.approvalId, 'approve', (await store.get(one.approvalId))!.secret, ALONE),
    ).toBe('expired');
    expect((await store.take(two.approvalId, 'set_alert_config_enabled', 'h1')).state).toBe('expired');
    expect(await store.pending(ALONE)).toEqual([]);
    // No wait: each expiry is on record before the answer that found it (the audit log reads in order).
    const outcomes = audit().map((e) => `${e.approvalId === one.approvalId ? 'one' : 'two'}:${e.outcome}`);
    expect(outcomes.sort()).toEqual(['one:expired', 'two:confirmed', 'two:expired']);
  });

  it('wait resolves on the decision and reports progress meanwhile', async () => {
    vi.useFakeTimers();
    const { store } = setup();
    const { approvalId } = await store.create(req());
    const ticks: number[] = [];
    const waiting = store.wait!(approvalId, 5_000, new AbortController().signal, (ms) => ticks.push(ms));
    await vi.advanceTimersByTimeAsync(70);
    expect(ticks).toEqual([20, 40, 60]);
    await store.decide(approvalId, 'approve', (await store.get(approvalId))!.secret, ALONE);
    expect(await waiting).toBe('approved');
    expect(ticks).toEqual([20, 40, 60]);
  });

  it('wait gives up after its time or when the call is cancelled', async () => {
    vi.useFakeTimers();
    const { store } = setup();
    const { approvalId } = await store.create(req());
    let gaveUp = false;
    const timed = store.wait!(approvalId, 50, new AbortController().signal, () => {});
    void timed.then(() => (gaveUp = true));
    await vi.advanceTimersByTimeAsync(49);
    expect(gaveUp).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await timed).toBe('pending');
    const ac = new AbortController();
    const waiting = store.wait!(approvalId, 5_000, ac.signal, () => {});
    ac.abort();
    expect(await waiting).toBe('pending');
  });

  it('masks secrets in the preview, including a change of a secret field', () => {
    const p = redactPreview({
      action: 'Replace the integration',
      target: { project: 'p1' },
      changes: [
        { field: 'apiKey', from: 'old-key-1234567890', to: 'new-key-0987654321' },
        { field: 'integration', from: { type: 'X', serviceKey: 'svc-abcdefghijkl' }, to: { type: 'X' } },
        { field: 'webhookUrl', from: 'https://hooks.example.com/secret/path', to: undefined },
      ],
    });
    const text = JSON.stringify(p);
    for (const s of ['old-key-1234567890', 'new-key-0987654321', 'svc-abcdefghijkl', '/secret/path'])
      expect(text).not.toContain(s);
    expect(text).toContain('******7890');
    expect(text).toContain('https://hooks.example.com/******');
  });
});

describe('approval page', () => {
  it('escapes every untrusted value and strips bidi and control characters', () => {
    expect(esc(`<script>alert("x")</script>&'`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;',
    );
    expect(esc('a\u202Eb\u0007c')).toBe('abc');
  });

  it('renders the preview, the diff, the arguments and the form without any raw HTML from the data', async () => {
    const { store } = setup();
    const { approvalId } = await store.create({
      ...req(),
      preview: { ...preview, action: 'Disable <img src=x onerror=alert(1)>' },
    });
    const html = approvalPage((await store.get(approvalId))!, clock, { nonce: 'n0' });
    expect(html).toContain('<meta name="viewport"');
    expect(html).toContain('<style nonce="n0">');
    expect(html).toContain('Disable &lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');
    expect(html).toContain('<th scope="row">enabled</th><td>yes</td><td>no</td>');
    expect(html).toContain(`name="csrf" value="${(await store.get(approvalId))!.secret}"`);
    expect(html).toContain('value="approve">Approve</button>');
    expect(html).toContain('value="decline">Decline</button>');
    expect(html).toContain('10 min left');
    expect(html).not.toContain('sk-live-1234567890abcd');
    expect(html).not.toContain('<script');
  });

  it('shows the outcome instead of the buttons once decided', async () => {
    const { store } = setup();
    const { approvalId } = await store.create(req());
    await store.decide(approvalId, 'decline', (await store.get(approvalId))!.secret, ALONE);
    const html = approvalPage((await store.get(approvalId))!, clock, { nonce: 'n' });
    expect(html).toContain('Declined. Nothing will change.');
    expect(html).not.toContain('<form');
  });

  it('diffs lists item by item and objects field by field', () => {
    const roles = diffRows('roles', ['GROUP_READ_ONLY', 'GROUP_OWNER'], ['GROUP_READ_ONLY', 'ORG_MEMBER']);
    expect(roles.join('')).toContain('<del>− GROUP_OWNER</del>');
    expect(roles.join('')).toContain('<ins>+ ORG_MEMBER</ins>');
    const window = diffRows(
      'window',
      { startDate: '2026-11-21T10:00Z', endDate: '2026-11-21T12:00Z', description: 'same' },
      { startDate: '2026-11-21T10:00Z', endDate: '2026-11-22T12:00Z', description: 'same' },
    );
    expect(window).toEqual([
      '<tr><th scope="row">window.endDate</th><td>2026-11-21T12:00Z</td><td>2026-11-22T12:00Z</td></tr>',
    ]);
  });

  it('lists pending approvals with time left', async () => {
    const { store } = setup();
    await store.create(req());
    const html = listPage(await store.pending(ALONE), clock, { nonce: 'n' });
    expect(html).toContain('Disable alert configuration abc');
    expect(html).toContain('10 min');
    expect(listPage([], clock, { nonce: 'n' })).toContain('No approvals are waiting');
  });

  it('formats time left', () => {
    const now = new Date(0);
    expect(timeLeft(new Date(90_000), now)).toBe('1 min 30 s');
    expect(timeLeft(new Date(3_900_000), now)).toBe('1 h 5 min');
    expect(timeLeft(new Date(0), now)).toBe('expired');
  });
});

describe('opening the browser', () => {
  it('uses the platform opener', () => {
    const url = 'http://127.0.0.1:4000/approvals/abc';
    expect(browserCommand(url, 'linux')).toEqual(['xdg-open', [url]]);
    expect(browserCommand(url, 'darwin')).toEqual(['open', [url]]);
    expect(browserCommand(url, 'win32')).toEqual(['cmd', ['/c', 'start', '', url]]);
  });
});
