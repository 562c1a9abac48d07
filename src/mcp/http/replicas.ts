// Replicas behind a plain load balancer: a 2025 session lives on the replica that opened it, so a request for
// it that reaches another replica is passed on — to the origin that replica registered in the directory
// (signed with the replicas' shared key) plus the request's own path, with a signed hand-over header.
import { createHmac } from 'node:crypto';
import { type IncomingMessage, request, type ServerResponse } from 'node:http';
import { sameSecret } from '../../policy/signer.js';

/** Marks a request passed on by another replica (never passed on again): `<unix seconds>.<HMAC>`. */
export const FORWARDED = 'x-dbops-forwarded';
/** How long a signed hand-over stays valid (clock skew between replicas included). */
const HOP_WINDOW_S = 30;

export type ReplicaSigner = ReturnType<typeof replicaSigner>;

/**
 * What replicas sign with their shared key: the directory entry naming a session's holder (so an entry
 * nobody with the key wrote is never followed) and each hand-over (method, path, session and time).
 */
export function replicaSigner(key: Uint8Array) {
  const mac = (...parts: string[]) => createHmac('sha256', key).update(parts.join('\n')).digest('base64url');
  return {
    entry: (id: string, origin: string) => `${origin} ${mac('holder', id, origin)}`,
    holderOf(id: string, entry: string): string | undefined {
      const [origin, sig, extra] = entry.split(' ');
      if (!origin || !sig || extra !== undefined || !sameSecret(sig, mac('holder', id, origin)))
        return undefined;
      return origin;
    },
    signHop(method: string, url: URL, session: string): string {
      const at = String(Math.floor(Date.now() / 1000));
      return `${at}.${mac('hop', method, url.pathname + url.search, session, at)}`;
    },
    verifyHop(req: IncomingMessage, url: URL, session: unknown): boolean {
      const value = req.headers[FORWARDED];
      if (typeof value !== 'string' || typeof session !== 'string') return false;
      const [at, sig] = value.split('.');
      if (!at || !sig || !/^\d{1,12}$/.test(at)) return false;
      if (Math.abs(Date.now() / 1000 - Number(at)) > HOP_WINDOW_S) return false;
      return sameSecret(sig, mac('hop', req.method ?? 'GET', url.pathname + url.search, session, at));
    },
  };
}

/**
 * Passes a request on to the replica at `target` (a registered origin) and streams its answer back; false
 * (nothing sent yet) when that replica cannot be reached. The address is that origin plus the request's own
 * path and query, built here, never resolved from what the client sent.
 */
export function forward(
  target: string,
  url: URL,
  hop: string,
  req: IncomingMessage,
  res: ServerResponse,
  body: unknown,
): Promise<boolean> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  // The client's hop-by-hop headers (and its Host) are not passed on: this is a new connection.
  const {
    'content-length': _len,
    'transfer-encoding': _te,
    host: _host,
    connection: _conn,
    'keep-alive': _ka,
    upgrade: _up,
    ...headers
  } = req.headers;
  const to = new URL(target);
  to.pathname = url.pathname;
  to.search = url.search;
  return new Promise((resolve) => {
    const out = request(
      to,
      {
        method: req.method,
        headers: { ...headers, [FORWARDED]: hop, ...(payload ? { 'content-length': payload.length } : {}) },
      },
      (answer) => {
        // Hop-by-hop headers belong to the replicas' own connection, not to the client's.
        const { connection: _c, 'keep-alive': _k, ...answerHeaders } = answer.headers;
        res.writeHead(answer.statusCode ?? 502, answerHeaders);
        answer.pipe(res);
        resolve(true);
      },
    );
    out.once('error', () => {
      if (res.headersSent) res.destroy();
      resolve(res.headersSent);
    });
    res.once('close', () => out.destroy());
    out.end(payload);
  });
}
