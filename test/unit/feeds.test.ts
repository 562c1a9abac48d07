// The feed building blocks without a network: capability memo and fallback, bounded fan-out, shared pollers,
// change classification, fingerprints, grouping and URI matching.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mapBounded } from '../../src/api/bounded.js';
import { ifSupported, supports, withFallback } from '../../src/api/capabilities.js';
import type { Alert, ApiClient, ApiEvent } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { alertsFingerprint } from '../../src/feeds/alerts.js';
import { eventsFingerprint } from '../../src/feeds/events.js';
import { feeds, feedUri, matchFeed } from '../../src/feeds/index.js';
import { activePollers, subscribe } from '../../src/feeds/subscriptions.js';
import { changeSummary } from '../../src/format/views/events.js';
import { groupByCause } from '../../src/model/index.js';
import { changeKind } from '../../src/rules/index.js';

const fakeApi = () => ({ stats: { requests: 0 } }) as unknown as ApiClient;
const notFound = (errorCode: string) =>
  new ApiError({ status: 404, errorCode, method: 'GET', path: '/groups/x/alerts' });

describe('withFallback', () => {
  it('falls back on a missing endpoint and skips the primary from then on', async () => {
    const api = fakeApi();
    const primary = vi.fn(async () => {
      throw notFound('RESOURCE_NOT_FOUND');
    });
    const fallback = vi.fn(async () => 'fan-out');
    expect(await withFallback(api, 'projectAlerts', primary, fallback)).toEqual({
      value: 'fan-out',
      fallback: true,
    });
    expect(await withFallback(api, 'projectAlerts', primary, fallback)).toEqual({
      value: 'fan-out',
      fallback: true,
    });
    expect(primary).toHaveBeenCalledTimes(1);
    expect(supports(api, 'projectAlerts')).toBe(false);
    // Per client: another server (another client) is asked again.
    expect(supports(fakeApi(), 'projectAlerts')).toBeUndefined();
  });

  it('does not mistake an unknown project (also a 404) for a missing endpoint', async () => {
    const api = fakeApi();
    const fallback = vi.fn(async () => 'fan-out');
    await expect(
      withFallback(
        api,
        'projectAlerts',
        async () => {
          throw notFound('GROUP_NOT_FOUND');
        },
        fallback,
      ),
    ).rejects.toThrow(ApiError);
    expect(fallback).not.toHaveBeenCalled();
    expect(supports(api, 'projectAlerts')).toBeUndefined();
  });

  it('treats a GET answered 405 (the path exists for other methods) as a missing endpoint', async () => {
    const api = fakeApi();
    const r = await withFallback(
      api,
      'maintenanceWindows',
      async () => {
        throw new ApiError({ status: 405, method: 'GET', path: '/groups/x/maintenanceWindows' });
      },
      async () => 'none',
    );
    expect(r).toEqual({ value: 'none', fallback: true });
  });

  it('remembers a supported endpoint, and ifSupported yields undefined for a missing one', async () => {
    const api = fakeApi();
    expect(await ifSupported(api, 'projects', async () => 3)).toBe(3);
    expect(supports(api, 'projects')).toBe(true);
    expect(
      await ifSupported(api, 'maintenanceWindows', async () => {
        throw notFound('RESOURCE_NOT_FOUND');
      }),
    ).toBeUndefined();
  });
});

describe('mapBounded', () => {
  const tick = () => new Promise((r) => setTimeout(r, 1));

  it('keeps at most `limit` calls in flight and returns results in input order', async () => {
    let inFlight = 0;
    let peak = 0;
    const out = await mapBounded([5, 1, 4, 2, 3, 0, 6], 3, undefined, async (n) => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, n));
      inFlight--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 40, 20, 30, 0, 60]);
    expect(peak).toBe(3);
  });

  it('starts nothing new once the caller aborts, and aborts what is in flight', async () => {
    const ac = new AbortController();
    const started: number[] = [];
    const aborted: number[] = [];
    const run = mapBounded([1, 2, 3, 4, 5, 6], 2, ac.signal, async (n, signal) => {
      started.push(n);
      if (n === 2) ac.abort();
      await tick();
      if (signal.aborted) aborted.push(n);
      return n;
    });
    await expect(run).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 20)); // the calls in flight see the abort and end
    expect(started).toEqual([1, 2]);
    expect(aborted.sort()).toEqual([1, 2]);
  });

  it('rejects with the first failure and launches nothing after it', async () => {
    const started: number[] = [];
    await expect(
      mapBounded([1, 2, 3, 4], 1, undefined, async (n) => {
        started.push(n);
        if (n === 2) throw new Error('boom');
        return n;
      }),
    ).rejects.toThrow('boom');
    expect(started).toEqual([1, 2]);
  });

  it('refuses to start when already aborted', async () => {
    const fn = vi.fn(async () => 1);
    await expect(mapBounded([1], 4, AbortSignal.abort(), fn)).rejects.toThrow();
    expect(fn).not.toHaveBeenCalled();
  });
});

describe('subscriptions', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs one poller per feed and client, notifies every listener on a change, and stops with the last', async () => {
    vi.useFakeTimers();
    const api = fakeApi();
    let value = 'a';
    const read = vi.fn(async () => value);
    const source = { api, key: 'dbops://projects/p/alerts', intervalMs: 1_000, read };
    const one = vi.fn();
    const two = vi.fn();
    const stopOne = await subscribe(source, one);
    const stopTwo = await subscribe(source, two);
    expect(activePollers()).toBe(1);
    expect(read).toHaveBeenCalledTimes(1); // the baseline, taken once

    await vi.advanceTimersByTimeAsync(3_000);
    expect(read).toHaveBeenCalledTimes(4);
    expect(one).not.toHaveBeenCalled();

    value = 'b';
    await vi.advanceTimersByTimeAsync(1_000);
    expect(one).toHaveBeenCalledTimes(1);
    expect(two).toHaveBeenCalledTimes(1);

    stopOne();
    value = 'c';
    await vi.advanceTimersByTimeAsync(1_000);
    expect(one).toHaveBeenCalledTimes(1);
    expect(two).toHaveBeenCalledTimes(2);

    stopTwo();
    expect(activePollers()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    const calls = read.mock.calls.length;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(read).toHaveBeenCalledTimes(calls);
  });

  it('keeps polling through failed reads and compares with the last good one', async () => {
    vi.useFakeTimers();
    const answers: Array<string | Error> = ['a', new Error('down'), 'a', 'b'];
    const read = vi.fn(async () => {
      const next = answers.shift() ?? 'b';
      if (next instanceof Error) throw next;
      return next;
    });
    const listener = vi.fn();
    const stop = await subscribe({ api: fakeApi(), key: 'k', intervalMs: 100, read }, listener);
    await vi.advanceTimersByTimeAsync(250);
    expect(listener).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(100);
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
  });

  it('uses timers that do not keep the process alive', async () => {
    const spy = vi.spyOn(globalThis, 'setTimeout');
    const stop = await subscribe(
      { api: fakeApi(), key: 'k2', intervalMs: 60_000, read: async () => 'x' },
      () => {},
    );
    const timer = spy.mock.results.at(-1)?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    stop();
    spy.mockRestore();
  });
});

const ev = (e: Partial<ApiEvent> & { eventTypeName: string }): ApiEvent => ({
  id: Math.random().toString(16).slice(2),
  created: '2026-11-21T10:00:00Z',
  ...e,
});

describe('changeKind', () => {
  it('keeps the changes people and keys make', () => {
    expect(changeKind(ev({ eventTypeName: 'AUTOMATION_CONFIG_PUBLISHED_AUDIT', publicKey: 'abc' }))).toBe(
      'deployment',
    );
    expect(changeKind(ev({ eventTypeName: 'USER_ROLES_CHANGED_AUDIT', username: 'a' }))).toBe('access');
    expect(changeKind(ev({ eventTypeName: 'JOINED_GROUP', username: 'a' }))).toBe('access');
    expect(changeKind(ev({ eventTypeName: 'API_KEY_ADDED_TO_GROUP', username: 'a' }))).toBe('access');
    expect(changeKind(ev({ eventTypeName: 'MAINTENANCE_WINDOW_DELETED_AUDIT' }))).toBe('maintenance');
    expect(changeKind(ev({ eventTypeName: 'ALERT_CONFIG_DISABLED_AUDIT' }))).toBe('alerting');
    expect(changeKind(ev({ eventTypeName: 'INTEGRATION_CONFIGURED', username: 'a' }))).toBe('alerting');
    expect(changeKind(ev({ eventTypeName: 'GROUP_TAGS_CHANGED', username: 'a' }))).toBe('settings');
  });

  it('counts data operations that write as changes, reads not, and says what they touched', () => {
    const op = (opType: string) =>
      ev({
        eventTypeName: 'DATA_EXPLORER_CRUD',
        username: 'a',
        database: 'payments',
        collection: 'ledger',
        opType,
      });
    for (const w of ['DELETE', 'UPDATE', 'INSERT', 'REPLACE']) expect(changeKind(op(w)), w).toBe('data');
    for (const r of ['FIND', 'AGGREGATE', 'LIST_INDEXES']) expect(changeKind(op(r)), r).toBeUndefined();
    expect(changeSummary(op('DELETE'))).toBe('DELETE on payments.ledger');
  });

  it('leaves out alert and metric noise, host and agent state, data access and logins', () => {
    for (const t of [
      'OUTSIDE_METRIC_THRESHOLD',
      'INSIDE_METRIC_THRESHOLD',
      'HOST_DOWN',
      'HOST_RECOVERED',
      'PRIMARY_ELECTED',
      'ALERT_ACKNOWLEDGED_AUDIT',
      'ALERT_UNACKNOWLEDGED_AUDIT',
      'DATA_EXPLORER', // without an opType: access, not a change
      'DATA_EXPLORER_CRUD',
      'MONITORING_AGENT_DOWN',
      'SUCCESSFUL_LOGIN_AUDIT',
      'DAEMON_UP',
    ])
      expect(changeKind(ev({ eventTypeName: t, username: 'someone' })), t).toBeUndefined();
    expect(changeKind(ev({ eventTypeName: 'SOMETHING_HAPPENED' }))).toBeUndefined();
  });
});

describe('fingerprints', () => {
  it('events: a new event changes it, an older one leaving the window does not', () => {
    const a = ev({ id: 'a', eventTypeName: 'X', created: '2026-11-21T10:00:00Z' });
    const b = ev({ id: 'b', eventTypeName: 'X', created: '2026-11-21T11:00:00Z' });
    const c = ev({ id: 'c', eventTypeName: 'X', created: '2026-11-21T11:00:00Z' });
    expect(eventsFingerprint([a, b])).toBe(eventsFingerprint([b]));
    expect(eventsFingerprint([a, b, c])).not.toBe(eventsFingerprint([a, b]));
  });

  it('alerts: status, acknowledgement and its lapse count; order does not', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const x: Alert = { id: 'x', status: 'OPEN', acknowledgedUntil: '2026-11-21T13:00:00Z' };
    const y: Alert = { id: 'y', status: 'TRACKING' };
    const base = alertsFingerprint([x, y], now);
    expect(alertsFingerprint([y, x], now)).toBe(base);
    expect(alertsFingerprint([x, { ...y, status: 'OPEN' }], now)).not.toBe(base);
    expect(alertsFingerprint([{ ...x, acknowledgedUntil: undefined }, y], now)).not.toBe(base);
    expect(alertsFingerprint([x, y], new Date('2026-11-21T14:00:00Z'))).not.toBe(base);
  });
});

describe('groupByCause', () => {
  it('groups by event type and metric, by host within a cause, oldest first', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    const a = (id: string, created: string, host: string, metricName?: string): Alert => ({
      id,
      created,
      status: 'OPEN',
      eventTypeName: metricName ? 'OUTSIDE_METRIC_THRESHOLD' : 'HOST_DOWN',
      metricName,
      hostnameAndPort: host,
      alertConfigId: metricName ?? 'down',
    });
    const groups = groupByCause(
      [
        a('1', '2026-11-21T09:00:00Z', 'h2:1', 'CONNECTIONS'),
        a('2', '2026-11-21T08:00:00Z', 'h1:1', 'CONNECTIONS'),
        a('3', '2026-11-21T10:00:00Z', 'h1:1', 'CONNECTIONS'),
        a('4', '2026-11-21T07:00:00Z', 'h3:1'),
      ],
      [],
      now,
    );
    expect(groups.map((g) => g.cause)).toEqual(['HOST_DOWN', 'OUTSIDE_METRIC_THRESHOLD CONNECTIONS']);
    expect(groups[1]!.alerts.map((x) => x.id)).toEqual(['2', '3', '1']);
    expect(groups[1]!.oldest).toBe('2026-11-21T08:00:00Z');
  });
});

describe('matchFeed', () => {
  it('matches every feed template, with the format from the query', () => {
    for (const feed of feeds) {
      const uri = feedUri(feed, { projectId: 'p1', globalAlertConfigId: 'g1' });
      expect(matchFeed(uri)).toMatchObject({ feed, format: 'markdown', key: uri });
      expect(matchFeed(`${uri}?format=json`)).toMatchObject({ feed, format: 'json', key: uri });
    }
    expect(matchFeed('dbops://projects/p1/alerts')?.vars).toEqual({ projectId: 'p1' });
  });

  it('refuses unknown feeds, formats and unsafe ids', () => {
    expect(matchFeed('dbops://projects/p1/alerts?format=csv')).toBeUndefined();
    expect(matchFeed('dbops://projects/p1/nothing')).toBeUndefined();
    expect(matchFeed('dbops://projects/%2E%2E/alerts')).toBeUndefined();
    expect(matchFeed('dbops://projects/a%2Fb/alerts')).toBeUndefined();
    expect(matchFeed('dbops://projects/%E0%A4%A/alerts')).toBeUndefined();
    expect(matchFeed('https://projects/p1/alerts')).toBeUndefined();
  });
});
