// The second on-call suite (issue 41) end to end: a real MCP client → our server → HTTP digest → simulator,
// the calls a model would make, each answer's facts from the simulator's records (unwritten.mjs), and per
// question the calls and characters it took — on the demo and on an installation of 500 projects (worlds.ts).
// Goal: each in ≤ 2 calls (3 for a change), median ≤ 2,500 characters on each world.
import { afterAll, expect, it } from 'vitest';
import { median } from './oncall.mjs';
import { type Asked, ask, questions } from './unwritten.mjs';
import { eachWorld } from './worlds.js';

eachWorld('on call: questions nobody had written down', (world) => {
  const measured: Asked[] = [];
  afterAll(() => {
    if (measured.length)
      console.log(
        `unwritten on-call questions (${world.projects} projects): ${measured.length} answered, median ${median(measured.map((m) => m.chars))} chars\n${measured
          .map((m) => `  ${m.name.padEnd(20)} ${m.calls} call(s) ${String(m.chars).padStart(6)} chars`)
          .join('\n')}`,
      );
  });

  it('holds at least fifteen questions', () => expect(questions.length).toBeGreaterThanOrEqual(15));

  for (const q of questions)
    it(`${q.name}: ${q.question}`, async () => {
      const { sim, t } = world;
      const r = await ask(q, (name, args) => t.call(name, args), sim.store.data, new Date());
      measured.push(r);
      const all = r.texts.join('\n');
      for (const text of r.texts) expect(text.startsWith('(error)'), text).toBe(false);
      expect(r.lacks, all).toEqual([]);
      expect(r.calls).toBeLessThanOrEqual(q.change ? 3 : 2);
      for (const text of r.texts) expect(text.length, text).toBeLessThan(4_000);
    });

  it('median answer within 2,500 characters', () => {
    expect(measured.length).toBe(questions.length);
    expect(median(measured.map((m) => m.chars))).toBeLessThanOrEqual(2_500);
  });
});
