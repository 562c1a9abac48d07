// `dbops-mcp call <tool> [json-args]`: one tool through the real MCP path (an in-memory client), its text
// answer printed; consent from this shell with --yes, or by token or the approval page.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { openInBrowser } from '../../approval/open.js';
import { catalog, toolsets } from '../../catalog.js';
import { type Config, ConfigError, loadConfig } from '../../config/index.js';
import { createLogger } from '../../log.js';
import { checkToolFilters } from '../../policy/toolsets.js';
import { createRuntime } from '../runtime.js';
import { createMcpServer } from '../server.js';
import { fail, loadExtensions, quietOnClosedPipe } from './common.js';

const callHelp = `Usage: dbops-mcp call <tool> [json-args] [--yes] [--demo] [--demo-reset] [settings]

Runs one tool through the real MCP path and prints its text answer; exit 1 when the tool reports an error.
Guarded changes: without --yes the first call prints a preview and a confirmationToken (pass it back in the
JSON arguments to apply); --yes is your consent from this shell and applies the change after showing it.
With DBOPS_APPROVAL_OPEN=true the approval page opens in your browser instead and the call waits for your
decision there (up to DBOPS_APPROVAL_WAIT_MS).
Demo mode keeps its data between calls in demo-state.json beside the audit log, so a change stays made;
--demo-reset starts over from fresh demo data.`;

/**
 * A one-shot process cannot serve a page after it exits, so `call` uses the approval page only when it
 * waits for the decision: with DBOPS_APPROVAL_OPEN (browser opened), or when the page is the only channel
 * allowed. Either way the link is printed on stderr.
 */
export function forCall(parsed: Config): Config {
  const config = { ...parsed, transport: 'stdio' as const };
  if (!config.confirmVia.includes('approval-page') || config.approvalOpen) return config;
  const others = config.confirmVia.filter((c) => c !== 'approval-page');
  return others.length ? { ...config, confirmVia: others } : { ...config, approvalOpen: true };
}

/**
 * A token printed by one `call` must verify in the next one, so without DBOPS_TOKEN_SECRET the command keeps
 * a random secret in a 0600 file beside the audit log (the person's own state directory).
 */
function callTokenSecret(auditLog: string): string {
  const file = join(dirname(auditLog), 'call-token-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const secret = randomBytes(32).toString('hex');
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      return readFileSync(file, 'utf8').trim(); // another call created it first
    }
  }
}

export async function runCall(args: string[]): Promise<number> {
  const [name, maybeJson, ...rest] = args;
  if (!name || name === '--help' || name === '-h') {
    process.stderr.write(`${callHelp}\n`);
    return name ? 0 : 2;
  }
  const hasJson = maybeJson !== undefined && !maybeJson.startsWith('--');
  const flags = hasJson ? rest : [maybeJson, ...rest].filter((a): a is string => a !== undefined);
  quietOnClosedPipe();
  const yes = flags.includes('--yes');
  const demoReset = flags.includes('--demo-reset');
  let toolArgs: Record<string, unknown> = {};
  let config: Config;
  let browser = false;
  try {
    if (hasJson) {
      const parsed: unknown = JSON.parse(maybeJson);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new ConfigError('the tool arguments must be a JSON object, e.g. \'{"projectId":"..."}\'');
      toolArgs = parsed as Record<string, unknown>;
    }
    const parsed = loadConfig(
      flags.filter((a) => a !== '--yes').map((a) => (a === '--demo-reset' ? '--demo' : a)),
    );
    checkToolFilters(parsed, catalog, toolsets);
    browser = parsed.approvalOpen;
    config = { ...forCall(parsed), tokenSecret: parsed.tokenSecret ?? callTokenSecret(parsed.auditLog) };
  } catch (e) {
    if (e instanceof SyntaxError)
      return fail(new ConfigError(`the tool arguments are not valid JSON: ${e.message}`));
    return fail(e);
  }
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  // Each call is a new process: demo data lives in a file so that what one call changes, the next one sees.
  const demoDataFile =
    config.demo || !config.baseUrl ? join(dirname(config.auditLog), 'demo-state.json') : undefined;
  if (demoDataFile && demoReset) rmSync(demoDataFile, { force: true });
  let runtime: Awaited<ReturnType<typeof createRuntime>>;
  try {
    runtime = await createRuntime(config, logger, {
      demoDataFile,
      openApproval: (url) => {
        process.stderr.write(`Approve or decline at ${url} (waiting for your decision)\n`);
        if (browser) openInBrowser(url, logger);
      },
    });
  } catch (e) {
    return fail(e);
  }
  const server = createMcpServer({
    ...runtime.deps,
    extensions: await loadExtensions(),
    ...(yes ? { elicitationChannel: '--yes' } : {}),
  });
  const { Client, InMemoryTransport } = await import('@modelcontextprotocol/client');
  const client = new Client(
    { name: 'dbops-mcp-call', version: '1' },
    { capabilities: yes ? { elicitation: { form: {} } } : {} },
  );
  if (yes)
    client.setRequestHandler('elicitation/create', async (req) => {
      process.stderr.write(`${req.params.message}\n(approved with --yes)\n`);
      return { action: 'accept', content: { confirm: true } };
    });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  try {
    await server.connect(serverSide);
    await client.connect(clientSide);
    // A call waiting on the approval page outlives the default request timeout; progress keeps it alive.
    const result = await client.callTool(
      { name, arguments: toolArgs },
      {
        timeout: config.approvalWaitMs + 60_000,
        onprogress: () => {},
        resetTimeoutOnProgress: true,
      },
    );
    const content = result.content as Array<{ type: string; text?: string }>;
    const text = content.map((c) => c.text ?? '').join('\n');
    (result.isError ? process.stderr : process.stdout).write(`${text}\n`);
    return result.isError ? 1 : 0;
  } finally {
    await client.close().catch(() => {});
    await server.close().catch(() => {});
    await runtime.close();
  }
}
