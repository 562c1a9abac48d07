// The 401 of the HTTP transport tells a person (or a bridge such as mcp-remote, which otherwise tries OAuth)
// which header is missing, or that the token in it is wrong.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { raw } from '../helpers/http.js';
import { startTestHttp, startTestServer, type TestServer } from '../helpers/mcp.js';

const token = 'correct-horse-battery-staple';
let t: TestServer;
let h: Awaited<ReturnType<typeof startTestHttp>>;
beforeAll(async () => {
  t = await startTestServer();
  h = await startTestHttp(t.deps, { token });
});
afterAll(async () => {
  await h.close();
  await t.close();
});

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const post = (headers: Record<string, string> = {}) =>
  raw(
    h.url,
    'POST',
    { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    initialize,
  );

it('names the missing Authorization header and says there is no OAuth', async () => {
  const r = await post();
  expect(r.status).toBe(401);
  const detail = JSON.parse(r.body).detail as string;
  expect(detail).toContain('Authorization: Bearer');
  expect(detail).toContain('--header');
  expect(detail).toContain('does not use OAuth');
  expect(r.headers['www-authenticate']).toMatch(/^Bearer .*error="invalid_request"/);
});

it('says the token is wrong when the header is there, without echoing it', async () => {
  const r = await post({ authorization: 'Bearer not-the-token' });
  expect(r.status).toBe(401);
  expect(r.body).toContain('does not carry the right bearer token');
  expect(r.body).not.toContain('not-the-token');
  expect(r.headers['www-authenticate']).toMatch(/error="invalid_token"/);
});
