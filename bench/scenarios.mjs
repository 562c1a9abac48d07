// The incident library (test/scenarios/incidents.mjs) through the real MCP path after a build: one simulator,
// every incident seeded as its own project, triage_project called per incident (SDK client ↔ server in
// memory ↔ API client ↔ simulator over HTTP with digest auth). Reports incidents solved (every named finding
// present, in place) and the characters each answer used. `node bench/scenarios.mjs` prints them; the bench
// runner imports runScenarios(). DBOPS_DIST=<dir> runs another build (e.g. an older commit's) instead.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { missing, scenarios } from '../test/scenarios/incidents.mjs';
import { argsFor, median, prepare, questions, unknownNextTools } from '../test/scenarios/oncall.mjs';

const CHAR_BUDGET = 4_000;

/**
 * Runs every incident once. Returns { solved, total, scenarios: [{ name, solved, chars, missing, text }] },
 * where `missing` names the findings an answer lacked (by their `why`) and `text` is the answer itself.
 */
export async function runScenarios({ dist = fileURLToPath(new URL('../dist/', import.meta.url)) } = {}) {
  const load = (path) => import(pathToFileURL(join(resolve(dist), path)).href);
  const [
    { createApiClient },
    { configSchema },
    { silentLogger },
    { createMcpServer },
    audit,
    secrets,
    signerModule,
    sim,
  ] = await Promise.all([
    load('src/api/client.js'),
    load('src/config/index.js'),
    load('src/log.js'),
    load('src/mcp/server.js'),
    load('src/policy/audit.js'),
    load('src/policy/secrets.js'),
    load('src/policy/signer.js'),
    load('src/simulator/index.js'),
  ]);
  const work = mkdtempSync(join(tmpdir(), 'dbops-bench-scenarios-'));
  const simulator = await sim.startSimulator({ host: '127.0.0.1', port: 0, dataset: 'demo' });
  const now = new Date();
  // The on-call questions (issue 32) read the demo as it is, before any incident adds a project to it.
  prepare(simulator.store.data, now);
  const config = configSchema.parse({
    baseUrl: simulator.baseUrl,
    publicKey: simulator.keys.publicKey,
    privateKey: simulator.keys.privateKey,
    orgId: simulator.orgId,
    auditLog: join(work, 'audit.log'),
    secretsDir: join(work, 'secrets'),
    logLevel: 'error',
  });
  const api = createApiClient({ baseUrl: simulator.baseUrl, ...simulator.keys, logger: silentLogger });
  const server = createMcpServer({
    config,
    api,
    logger: silentLogger,
    signer: signerModule.createSigner(config.tokenSecret),
    audit: audit.createAuditLog(config.auditLog, silentLogger),
    secrets: secrets.createSecretKeeper(config.secretsDir, false),
  });
  const client = new Client({ name: 'bench-scenarios', version: '1' });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  try {
    const oncall = await runOncall(client, simulator.store.data);
    // Each incident as a project of its own, added after the questions were asked.
    const seeded = scenarios.map((s) => ({ s, e: s.seed(simulator.store.data, now) }));
    const results = [];
    for (const { s, e } of seeded) {
      const r = await client.callTool({ name: 'triage_project', arguments: { projectId: e.projectId } });
      const text = (r.content ?? []).map((c) => c.text ?? '').join('\n');
      const lacks = r.isError ? [{ why: `error: ${text.slice(0, 120)}` }] : missing(text, e);
      results.push({
        name: s.name,
        solved: lacks.length === 0 && text.length < CHAR_BUDGET,
        chars: text.length,
        missing: lacks.map((f) => f.why),
        text,
      });
    }
    return {
      solved: results.filter((x) => x.solved).length,
      total: results.length,
      scenarios: results,
      oncall,
    };
  } finally {
    await client.close().catch(() => {});
    await server.close().catch(() => {});
    await api.close();
    await simulator.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The ten questions of an on-call shift (test/scenarios/oncall.mjs), each through the calls a model makes.
 * Incidents are seeded after it, so the questions see the demo alone. Returns per question the calls, the
 * characters and what the answers lacked; and the totals the issue's goal is stated in.
 */
async function runOncall(client, data) {
  const offered = new Set((await client.listTools()).tools.map((t) => t.name));
  const asked = [];
  for (const q of questions) {
    if (q.todo) {
      asked.push({ name: q.name, question: q.question, todo: q.todo });
      continue;
    }
    const texts = [];
    let error;
    for (const [name, args] of q.calls) {
      const r = await client.callTool({ name, arguments: argsFor(args, data) });
      const text = (r.content ?? []).map((c) => c.text ?? '').join('\n');
      if (r.isError) error = text.slice(0, 120);
      texts.push(text);
    }
    const lacks = error
      ? [`error: ${error}`]
      : [
          ...q.check(texts, data, new Date()),
          ...unknownNextTools(texts.join('\n'), offered).map((n) => `Next names ${n}`),
        ];
    const chars = texts.reduce((n, t) => n + t.length, 0);
    const within = q.calls.length <= (q.change ? 2 : 1) && texts.every((t) => t.length < CHAR_BUDGET);
    asked.push({
      name: q.name,
      question: q.question,
      calls: q.calls.length,
      chars,
      answered: !lacks.length && within,
      lacks,
    });
  }
  const done = asked.filter((a) => !a.todo);
  return {
    questions: asked,
    answered: done.filter((a) => a.answered).length,
    asked: done.length,
    total: questions.length,
    calls: done.reduce((n, a) => n + a.calls, 0),
    chars: done.reduce((n, a) => n + a.chars, 0),
    medianChars: median(done.map((a) => a.chars)),
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await runScenarios(process.env.DBOPS_DIST ? { dist: process.env.DBOPS_DIST } : {});
  console.log(
    `scenarios solved ${r.solved}/${r.total} (every finding named, under ${CHAR_BUDGET} characters)`,
  );
  for (const s of r.scenarios)
    console.log(
      `  ${s.solved ? 'solved' : 'MISSED'}  ${String(s.chars).padStart(5)} chars  ${s.name}${s.missing.length ? ` — lacks: ${s.missing.join('; ')}` : ''}`,
    );
  const o = r.oncall;
  console.log(
    `on-call questions answered ${o.answered}/${o.asked} asked (${o.total} in all), ${o.calls} calls, ${o.chars} characters, median ${o.medianChars} (goal: 10 of 10 in ≤ 1 call, ≤ 2 for changes; median ≤ 2,500)`,
  );
  for (const a of o.questions)
    console.log(
      a.todo
        ? `  todo             ${a.name} — ${a.todo}`
        : `  ${a.answered ? 'answered' : 'MISSED  '} ${a.calls} call  ${String(a.chars).padStart(5)} chars  ${a.name}${a.lacks.length ? ` — lacks: ${a.lacks.join('; ')}` : ''}`,
    );
  // --show <name>: print that incident's answer too.
  const show = process.argv[process.argv.indexOf('--show') + 1];
  const shown = process.argv.includes('--show') && r.scenarios.find((s) => s.name === show);
  if (shown) console.log(`\n${shown.text}`);
  process.exitCode = r.solved === r.total && o.answered === o.asked ? 0 : 1;
}
