// A team server for trust tests: named people with tokens of their own, the approval page on the MCP port,
// clients of both eras whose every request carries a person's token, and a browser's view of the page.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client as V2Client, StreamableHTTPClientTransport as V2Http } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Http } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { createApprovalService } from '../../src/approval/index.js';
import { createIdentity, type Identity } from '../../src/identity/index.js';
import { mintNamedToken } from '../../src/identity/tokens.js';
import type { ServerDeps } from '../../src/mcp/server.js';
import type { Simulator } from '../../src/simulator/index.js';
import { raw } from './http.js';
import { startTestHttp, startTestServer } from './mcp.js';

export type Era = 'v1' | 'pinned';
export interface Answer {
  text: string;
  isError: boolean;
  structured: Record<string, unknown> | undefined;
}

/** A client of one era whose every request carries `auth()` as its bearer token; counts elicitations. */
export async function client(
  era: Era,
  url: string,
  auth: () => string | undefined,
  name = `${era}-client`,
  elicit = true,
) {
  const capabilities = elicit ? { elicitation: { form: {} } } : {};
  const asked: string[] = [];
  const fetchWith = (input: string | URL | Request, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const token = auth();
    if (token) headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  const answer = (r: Record<string, unknown>): Answer => ({
    text: (r.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('\n'),
    isError: r.isError === true,
    structured: r.structuredContent as Record<string, unknown> | undefined,
  });
  if (era === 'v1') {
    const c = new V1Client({ name, version: '1' }, { capabilities });
    if (elicit)
      c.setRequestHandler(ElicitRequestSchema, async (r) => {
        asked.push(String(r.params.message));
        return { action: 'accept', content: { confirm: true } };
      });
    await c.connect(new V1Http(new URL(url), { fetch: fetchWith }));
    return {
      asked,
      call: async (n: string, a: Record<string, unknown>) =>
        answer(await c.callTool({ name: n, arguments: a })),
      close: () => c.close(),
    };
  }
  const c = new V2Client(
    { name, version: '1' },
    { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  if (elicit)
    c.setRequestHandler('elicitation/create', async (r) => {
      asked.push(String((r.params as { message?: string }).message));
      return { action: 'accept', content: { confirm: true } };
    });
  await c.connect(new V2Http(new URL(url), { fetch: fetchWith }));
  return {
    asked,
    call: async (n: string, a: Record<string, unknown>) =>
      answer(await c.callTool({ name: n, arguments: a })),
    close: () => c.close(),
  };
}

/** A team server: alice and bob with tokens of their own, bob an approver; the approval page on /approvals. */
export async function teamServer(
  sim: Simulator,
  opts: { approvers?: string[]; identity?: Identity; config?: Record<string, unknown> } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'dbops-four-eyes-'));
  const people = {
    alice: mintNamedToken('alice'),
    bob: mintNamedToken('bob'),
    carol: mintNamedToken('carol'),
  };
  const file = join(dir, 'tokens');
  writeFileSync(
    file,
    `${Object.values(people)
      .map((p) => p.line)
      .join('\n')}\n`,
  );
  const t = await startTestServer({ sim, config: { approvers: opts.approvers ?? ['bob'], ...opts.config } });
  const identity = opts.identity ?? createIdentity({ httpTokensFile: file, oauthScopes: [] }, t.deps.logger);
  const approvals = createApprovalService({
    ttlMs: 600_000,
    audit: t.deps.audit,
    logger: t.deps.logger,
    identity,
    approvers: opts.approvers ?? ['bob'],
    fourEyes: { fourEyes: t.config.fourEyes, longWindowHours: t.config.longWindowHours },
  });
  const deps: ServerDeps = {
    ...t.deps,
    approvals: approvals.channel,
    decisions: approvals.channel.decisions,
  };
  const http = await startTestHttp(deps, { identity, routes: approvals.routes });
  approvals.useOrigin(http.origin);
  identity.useResource(http.url);
  return {
    t,
    http,
    approvals,
    people,
    file,
    removeFromFile(name: 'alice' | 'bob' | 'carol') {
      const keep = Object.entries(people).filter(([n]) => n !== name);
      writeFileSync(file, `${keep.map(([, p]) => p.line).join('\n')}\n`);
    },
    async close() {
      await http.close();
      await approvals.close();
      await t.close();
    },
  };
}

/** Opens the approval page as a browser with `cookie`; returns the page and what its form needs. */
export async function page(url: string, cookie = '') {
  const headers: Record<string, string> = cookie ? { cookie } : {};
  let r = await raw(url, 'GET', headers);
  // A link followed from another site arrives without the Strict cookie: the page moves on to itself once.
  if (r.status === 200 && r.body.includes('http-equiv="refresh"')) {
    const again = new URL(url);
    again.searchParams.set('b', '1');
    r = await raw(again.toString(), 'GET', headers);
  }
  const csrfCookie = String(r.headers['set-cookie'] ?? '').split(';')[0] ?? '';
  return { r, csrf: /name="csrf" value="([^"]+)"/.exec(r.body)?.[1] ?? '', csrfCookie };
}

export async function post(url: string, decision: string, csrf: string, cookies: string[]) {
  return raw(
    url,
    'POST',
    {
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(url).origin,
      cookie: cookies.filter(Boolean).join('; '),
    },
    new URLSearchParams({ csrf, decision }).toString(),
  );
}

export async function signIn(origin: string, token: string): Promise<string> {
  const r = await raw(
    `${origin}/approvals/login`,
    'POST',
    { 'content-type': 'application/x-www-form-urlencoded', origin },
    new URLSearchParams({ token, next: '/approvals' }).toString(),
  );
  expect(r.status).toBe(303);
  return String(r.headers['set-cookie']).split(';')[0] as string;
}
