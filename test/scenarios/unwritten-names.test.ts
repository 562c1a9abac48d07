// Questions no tool was shaped for (issue 43): hosts by the name a person types, and "did it happen before".
// Each is answered end to end (MCP client → our server → HTTP digest → simulator) in at most two calls, on the
// demo and on an installation of 500 projects (worlds.ts); the facts checked come from that world's records,
// never from the answer. Median text ≤ 2,500 characters on each.
import { afterAll, expect, it } from 'vitest';
import type { StoreData as Data } from '../../src/simulator/records.js';
import { eachWorld } from './worlds.js';

const host = (d: Data, short: string) => d.hosts.find((h) => h.hostname.startsWith(`${short}.`))!;
const projectName = (d: Data, short: string) => d.projects.find((p) => p.id === host(d, short).groupId)!.name;
const events = (d: Data, short: string, type: string) =>
  d.events.filter((e) => e.eventTypeName === type && e.hostId === host(d, short).id);
/** "2026-11-16 06:43" — how the answers write a time. */
const minute = (iso: string) => iso.slice(0, 16).replace('T', ' ');
const minutesBetween = (a: string, b: string) => Math.round((Date.parse(b) - Date.parse(a)) / 60_000);

interface Question {
  question: string;
  calls: Array<[string, Record<string, unknown>]>;
  /** The facts an answer must hold, from the records: what is missing. */
  facts: (text: string, d: Data) => string[];
}

const missing = (text: string, facts: string[]) => facts.filter((f) => !text.includes(f));

const questions: Question[] = [
  {
    question: 'Where is db-prod-06?',
    calls: [['list_hosts', { host: 'db-prod-06' }]],
    facts: (text, d) => {
      const h = host(d, 'db-prod-06');
      return missing(text, [projectName(d, 'db-prod-06'), h.replicaSetName!, h.typeName, h.id, 'DOWN since']);
    },
  },
  {
    question: 'Did db-prod-06 go down before, and for how long?',
    calls: [['list_project_events', { target: 'db-prod-06', history: true }]],
    facts: (text, d) => {
      const downs = events(d, 'db-prod-06', 'HOST_DOWN');
      // Down now (no recovery recorded), and never before in what the platform keeps.
      return [
        ...missing(text, [`host down ${downs.length}×`, '(1 ongoing)', minute(downs[0]!.created), 'so far']),
        ...(events(d, 'db-prod-06', 'HOST_RECOVERED').length ? ['a recovery the answer should pair'] : []),
      ];
    },
  },
  {
    question: 'Has db-prod-02 been down before? How long was it out?',
    calls: [['list_project_events', { target: 'db-prod-02', history: true }]],
    facts: (text, d) => {
      const down = events(d, 'db-prod-02', 'HOST_DOWN')[0]!;
      const up = events(d, 'db-prod-02', 'HOST_RECOVERED')[0]!;
      return missing(text, [
        minute(down.created),
        minute(up.created),
        `${minutesBetween(down.created, up.created)} min`,
        'HOST_DOWN → HOST_RECOVERED',
        'Event names are not in the spec',
      ]);
    },
  },
  {
    question: 'What happened on db-prod-06 lately? (typed short)',
    calls: [['list_project_events', { target: 'db-prod-06', itemsPerPage: 10 }]],
    facts: (text, d) => missing(text, [events(d, 'db-prod-06', 'HOST_DOWN')[0]!.id, 'HOST_DOWN']),
  },
  {
    question: 'Where is db-stg-03, and when was it last out?',
    calls: [
      ['list_hosts', { host: 'db-stg-03' }],
      ['list_project_events', { target: 'db-stg-03', history: true }],
    ],
    facts: (text, d) => {
      const down = events(d, 'db-stg-03', 'HOST_DOWN')[0]!;
      const up = events(d, 'db-stg-03', 'HOST_RECOVERED')[0]!;
      return missing(text, [
        projectName(d, 'db-stg-03'),
        'pinging',
        minute(down.created),
        `${minutesBetween(down.created, up.created)} min`,
      ]);
    },
  },
];

eachWorld('unwritten questions: names and history', (world) => {
  const measured: number[] = [];
  afterAll(() => {
    if (measured.length)
      console.log(`unwritten (names, history; ${world.projects} projects): ${measured.join(', ')} chars`);
  });

  for (const q of questions)
    it(q.question, async () => {
      const { sim, t } = world;
      expect(q.calls.length).toBeLessThanOrEqual(2);
      const texts: string[] = [];
      for (const [name, args] of q.calls) {
        const r = await t.call(name, args);
        expect(r.isError, r.text).toBe(false);
        texts.push(r.text);
      }
      const all = texts.join('\n');
      measured.push(all.length);
      expect(q.facts(all, sim.store.data), all).toEqual([]);
    });

  it('median answer within 2,500 characters', () => {
    expect(measured).toHaveLength(questions.length);
    const sorted = [...measured].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThanOrEqual(2_500);
  });
});
