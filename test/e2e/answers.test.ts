// What the model reads, stored per tool: each tool's answer text for the seeded demo data at a frozen "now",
// through the real MCP path. A change to any answer shows up in review as a diff of these files
// (test/e2e/answers/*.md); run `npx vitest run test/e2e/answers.test.ts -u` to accept one on purpose.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalog } from '../../src/catalog.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { exampleOf } from '../../src/tool/index.js';
import { startTestServer, type TestServer } from '../helpers/mcp.js';

const NOW = new Date('2026-11-21T16:00:00Z');
const now = () => new Date(NOW);

let sim: Simulator;
let t: TestServer;
beforeAll(async () => {
  sim = await startSimulator({ dataset: 'demo', port: 0, now });
  // Every change answers with its preview (DBOPS_CONFIRM=write): nothing changes, so no answer depends on
  // the order the tools ran in.
  t = await startTestServer({ sim, now, config: { confirm: 'write' } });
});
afterAll(async () => {
  await t?.close();
  await sim?.close();
});

/** Each tool is called with its own example (its definition's `example`, at the frozen now). */
const argsFor = (name: string) => exampleOf(catalog.find((t) => t.name === name)!, NOW);

/** Only what is random per call is masked: the fence tag, tokens and approval ids. */
function stable(text: string): string {
  return text
    .replace(/data-[0-9a-f]{8}/g, 'data-TAG')
    .replace(/"[A-Za-z0-9_-]{40,}\.[A-Za-z0-9_-]{43}"/g, '"TOKEN"')
    .replace(/expires [^)]*\)\)/g, 'expires …)');
}

describe('answer text of every tool on the demo data', () => {
  for (const tool of catalog)
    it(tool.name, async () => {
      const r = await t.call(tool.name, argsFor(tool.name));
      await expect(`${r.isError ? '(error) ' : ''}${stable(r.text)}\n`).toMatchFileSnapshot(
        `answers/${tool.name}.md`,
      );
    });
});

// The same tool matrix against a platform speaking the field's names: every answer equals the spec one but for
// the words the platform chose (integration and notification type and field names).
describe('the same answers from a platform speaking the field dialect', () => {
  let fieldSim: Simulator;
  let ft: TestServer;
  beforeAll(async () => {
    fieldSim = await startSimulator({ dataset: 'demo', port: 0, now, dialect: 'field' });
    ft = await startTestServer({ sim: fieldSim, now, config: { confirm: 'write' } });
  });
  afterAll(async () => {
    await ft?.close();
    await fieldSim?.close();
  });
  // The field's words, mapped back: what is left must be the spec answer, character for character.
  const SPEC_WORDS: Array<[RegExp, string]> = [
    [
      /\b(DATADOG|HIP_CHAT|PAGER_DUTY|SLACK|NEW_RELIC|OPS_GENIE|VICTOR_OPS|MICROSOFT_TEAMS|PROMETHEUS) \(([A-Z_]+)\)/g,
      '$2 ($1)',
    ],
  ];
  const specWords = (text: string) => SPEC_WORDS.reduce((t, [re, to]) => t.replace(re, to), text);
  for (const tool of catalog)
    it(tool.name, async () => {
      const spec = await t.call(tool.name, argsFor(tool.name));
      const field = await ft.call(tool.name, argsFor(tool.name));
      expect(field.isError, field.text).toBe(spec.isError);
      expect(field.text).not.toMatch(/\bundefined\b|\[object Object\]/);
      if (tool.name !== 'get_alert_config' && tool.name !== 'list_alert_configs')
        expect(stable(specWords(field.text))).toBe(stable(spec.text));
    });
});
