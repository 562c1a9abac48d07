// Questions across projects that nobody wrote a tool for (issue 42), asked the way a model would — one call
// each, `projectId: "all"` on a list tool — on the demo and on a generated installation of 500 projects. Each
// answer's facts are computed from the simulator's own records (windows, configurations and their disabling
// events, alerts with their configurations and windows), never from the answer's shape. Prints per question the
// calls and characters it took. Goal: ≤ 2 calls each, median ≤ 2,500 characters.
import { afterAll, expect, it } from 'vitest';
import { alertTypeOf, pagesOf, windowState } from '../../src/rules/index.js';
import type { StoreData } from '../../src/simulator/records.js';
import { eachWorld } from './worlds.js';

const DAY = 86_400_000;
const ms = (iso: string | undefined) => Date.parse(iso ?? '') || 0;

/** The alert ids in the answer's table, in its order. */
const alertIdsOf = (text: string) => [...text.matchAll(/^\| [^|]+ \| ([0-9a-f]{24}) \|/gm)].map((m) => m[1]!);
/** The headline's total: "— 12 in 3 projects". */
const totalOf = (text: string) => Number(/ — (\d+)(?: in \d+ projects?)?/.exec(text.split('\n')[0]!)?.[1]);

/** Open project alerts, and global ones open in a project: what list_open_alerts lists. */
function openAlerts(d: StoreData) {
  const open = d.alerts.filter((a) => a.status === 'OPEN' || a.status === 'TRACKING');
  const global = d.globalAlerts.filter((a) => a.status === 'OPEN' && a.groupId);
  return [
    ...open.map((a) => ({ a, config: d.alertConfigs.find((c) => c.id === a.alertConfigId) })),
    ...global.map((a) => ({ a, config: d.globalAlertConfigs.find((c) => c.id === a.alertConfigId) })),
  ];
}

const acked = (a: { acknowledgedUntil?: string }, now: Date) => ms(a.acknowledgedUntil) > now.getTime();

interface Question {
  name: string;
  question: string;
  calls: Array<[string, Record<string, unknown>]>;
  /** What the answers lack, from the records: empty when they hold every fact. */
  check: (texts: string[], d: StoreData, now: Date) => string[];
}

const questions: Question[] = [
  {
    name: 'windows-this-week',
    question: 'which maintenance windows are planned this week, anywhere?',
    calls: [['list_maintenance_windows', { projectId: 'all', startsWithinHours: 168 }]],
    check: ([t], d, now) => {
      const upcoming = d.maintenanceWindows
        .filter((w) => windowState(w, now) === 'upcoming')
        .sort((x, y) => ms(x.startDate) - ms(y.startDate));
      const week = upcoming.filter((w) => ms(w.startDate) <= now.getTime() + 7 * DAY);
      const lack: string[] = [];
      // This week's, not every upcoming one (the generated installations plan some for later).
      if (totalOf(t!) !== week.length) lack.push(`total ${week.length} starting this week`);
      const first = week[0];
      if (
        first &&
        !t!
          .split('\n')
          .find((l) => l.includes(first.id))
          ?.includes(first.description ?? first.id)
      )
        lack.push(`the soonest window ${first.id} with its description`);
      const shown = [...t!.matchAll(/\| ([0-9a-f]{24}) \| upcoming \|/g)].map((m) => m[1]!);
      const soonest = week.slice(0, shown.length).map((w) => w.startDate);
      const order = shown.map((id) => d.maintenanceWindows.find((w) => w.id === id)?.startDate);
      if (JSON.stringify(order) !== JSON.stringify(soonest)) lack.push('soonest first');
      return lack;
    },
  },
  {
    name: 'disabled-configs',
    question: 'which alert configurations are disabled, and who disabled them?',
    calls: [['list_alert_configs', { projectId: 'all', enabled: false }]],
    check: ([t], d) => {
      const off = d.alertConfigs.filter((c) => !c.enabled);
      const lack: string[] = [];
      if (totalOf(t!) !== off.length) lack.push(`total ${off.length} disabled`);
      const disabledBy = (id: string) =>
        d.events
          .filter((e) => e.eventTypeName === 'ALERT_CONFIG_DISABLED_AUDIT' && e.alertConfigId === id)
          .sort((x, y) => ms(y.created) - ms(x.created))[0]?.username as string | undefined;
      // Every disabled configuration on the page says who disabled it.
      for (const line of t!.split('\n').filter((l) => /\| [0-9a-f]{24} \|.*\| no \|/.test(l))) {
        const id = /\| ([0-9a-f]{24}) \|/.exec(line)![1]!;
        const who = disabledBy(id);
        if (who && !line.includes(who)) lack.push(`${id} disabled by ${who}`);
      }
      return lack;
    },
  },
  {
    name: 'oldest-unacked',
    question: 'what is the oldest alert nobody has acknowledged?',
    calls: [['list_open_alerts', { projectId: 'all', acknowledged: false, sort: 'age' }]],
    check: ([t], d, now) => {
      const unacked = openAlerts(d).filter(({ a }) => !acked(a, now));
      const oldest = Math.min(...unacked.map(({ a }) => ms(a.created)));
      const first = alertIdsOf(t!)[0];
      const lack: string[] = [];
      if (totalOf(t!) !== unacked.length) lack.push(`total ${unacked.length} unacknowledged`);
      const firstAlert = unacked.find(({ a }) => a.id === first)?.a;
      if (!firstAlert || ms(firstAlert.created) !== oldest)
        lack.push(`first is an alert opened ${new Date(oldest).toISOString()}`);
      return lack;
    },
  },
  {
    name: 'pages-now',
    question: 'what pages someone right now?',
    calls: [['list_open_alerts', { projectId: 'all', paging: true }]],
    check: ([t], d, now) => {
      const muted = (groupId: string | undefined, eventTypeName: string) =>
        d.maintenanceWindows.some(
          (w) =>
            w.groupId === groupId &&
            windowState(w, now) === 'active' &&
            w.alertTypeNames.includes(alertTypeOf(eventTypeName) ?? ''),
        );
      const paging = openAlerts(d).filter(
        ({ a, config }) =>
          a.status === 'OPEN' &&
          pagesOf(config).length > 0 &&
          !acked(a, now) &&
          !muted(a.groupId, a.eventTypeName),
      );
      const lack: string[] = [];
      if (totalOf(t!) !== paging.length) lack.push(`total ${paging.length} paging now`);
      const ids = new Set(paging.map(({ a }) => a.id));
      for (const id of alertIdsOf(t!)) if (!ids.has(id)) lack.push(`${id} does not page now`);
      return lack;
    },
  },
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

// The questions only read: a read cache lets the big world's cold reads happen once.
eachWorld(
  'across the installation',
  (world) => {
    const measured: Array<{ name: string; calls: number; chars: number }> = [];
    afterAll(() => {
      console.log(
        `cross-project questions (${world.projects} projects): median ${median(measured.map((m) => m.chars))} chars\n${measured
          .map((m) => `  ${m.name.padEnd(18)} ${m.calls} call(s) ${String(m.chars).padStart(6)} chars`)
          .join('\n')}`,
      );
    });

    for (const q of questions)
      it(`${q.name}: ${q.question}`, async () => {
        const { sim, t } = world;
        const texts: string[] = [];
        for (const [name, args] of q.calls) {
          const r = await t.call(name, args);
          expect(r.isError, r.text).toBe(false);
          texts.push(r.text);
        }
        measured.push({
          name: q.name,
          calls: q.calls.length,
          chars: texts.reduce((n, x) => n + x.length, 0),
        });
        expect(q.check(texts, sim.store.data, new Date()), texts.join('\n')).toEqual([]);
        expect(q.calls.length).toBeLessThanOrEqual(2);
        expect(texts.join('\n')).not.toContain('Partial answer');
      });

    it('median answer within 2,500 characters', () => {
      expect(measured.length).toBe(questions.length);
      expect(median(measured.map((m) => m.chars))).toBeLessThanOrEqual(2_500);
    });
  },
  { apiOptions: { cacheTtlMs: 60_000 } },
);
