// Raw HTTP for the approval page tests: node:http, not fetch, so that every header (Host, Origin, Cookie,
// Sec-Fetch-Site) is under the test's control.
import { request } from 'node:http';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function raw(
  url: string,
  method = 'GET',
  headers: Record<string, string> = {},
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const r = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    r.on('error', reject);
    r.end(body);
  });
}

/** What a person's browser holds after loading an approval page: its cookie and the form's hidden secret. */
export async function pageForm(url: string, headers: Record<string, string> = {}) {
  const page = await raw(url, 'GET', headers);
  const cookie = String(page.headers['set-cookie']).split(';')[0]!;
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  return { page, cookie, csrf };
}

/** A person approving or declining on the approval page in their browser (same origin, cookie and form secret). */
export async function decide(url: string, decision: 'approve' | 'decline' = 'approve') {
  const { cookie, csrf } = await pageForm(url);
  const body = new URLSearchParams({ csrf, decision }).toString();
  const headers = {
    'content-type': 'application/x-www-form-urlencoded',
    origin: new URL(url).origin,
    cookie,
  };
  return raw(url, 'POST', headers, body);
}

/** A raw 2025 initialize POST to /mcp, to read the status, headers and body a refused (or accepted) one gets. */
export function rawInitialize(url: string, headers: Record<string, string> = {}): Promise<Reply> {
  return raw(
    url,
    'POST',
    { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    }),
  );
}
