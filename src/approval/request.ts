// One request to the approval pages as the route handlers see it: the request context (what was asked, how
// to answer it with the security headers every page carries), the pages' shared parts, and the small readers
// of cookies and bodies. Nothing here decides who may see or do what.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Identity } from '../identity/index.js';
import type { Logger } from '../log.js';
import { isLoopbackHost } from '../net.js';
import type { DecisionPoint } from '../policy/decide.js';
import type { PageOptions } from './page.js';
import type { Approval, ApprovalStore, Viewer } from './store.js';

export const CSRF_COOKIE = 'dbops_csrf';
export const AUTH_COOKIE = 'dbops_auth';
export const OAUTH_COOKIE = 'dbops_oauth';
const MAX_FORM = 8 * 1024;
const ID = /^[A-Za-z0-9_-]{16,64}$/;

/** How a viewer was recognised: a script's header needs no form secret; the signed link covers one request. */
export type Seen = Viewer & { by: 'alone' | 'header' | 'cookie' | 'link' };

/** What every request to the pages shares, built once with the routes. */
export interface Pages {
  store: ApprovalStore;
  decisions: DecisionPoint;
  /** Who may look; absent on a loopback page that this machine's user alone can reach. */
  identity: Identity | undefined;
  /** This machine's user: the one viewer when no identity is configured. */
  alone: string;
  /** Seals sign-in cookies and signed links. */
  key: Uint8Array;
  logger: Logger;
}

/** Sends a page with the security headers; true (handled). */
export type Send = (status: number, html: string, headers?: Record<string, string | string[]>) => boolean;

/** One request: what a route handler takes. */
export interface Ctx {
  pages: Pages;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  path: string;
  post: boolean;
  /** The answer asked for JSON (`?format=json` or an Accept header), as a script does. */
  wantsJson: boolean;
  /** The nonce of this answer's inline stylesheet. */
  o: PageOptions;
  send: Send;
  /** Sends JSON (never cached); true (handled). */
  json(status: number, body: unknown): boolean;
  /** The approval the path names, read once for the whole request (undefined when the path names none). */
  approval(): Promise<Approval | undefined>;
}

export function requestContext(pages: Pages, req: IncomingMessage, res: ServerResponse, url: URL): Ctx {
  const path = url.pathname;
  const nonce = randomBytes(12).toString('base64');
  const id = path.slice('/approvals/'.length);
  let loaded: Promise<Approval | undefined> | undefined;
  return {
    pages,
    req,
    res,
    url,
    path,
    post: req.method === 'POST',
    wantsJson:
      url.searchParams.get('format') === 'json' || (req.headers.accept ?? '').startsWith('application/json'),
    o: { nonce },
    send(status, html, headers = {}) {
      res.writeHead(status, { ...securityHeaders(nonce), ...headers }).end(html);
      return true;
    },
    json(status, body) {
      res
        .writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        .end(JSON.stringify(body));
      return true;
    },
    approval() {
      loaded ??= ID.test(id) ? pages.store.get(id) : Promise.resolve(undefined);
      return loaded;
    },
  };
}

/** A 303 to `location` with the security headers (and any cookie to set); true (handled). */
export function redirect(c: Ctx, location: string, headers: Record<string, string | string[]> = {}): boolean {
  c.res.writeHead(303, { ...securityHeaders(c.o.nonce), location, ...headers }).end();
  return true;
}

function securityHeaders(nonce: string): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // same-origin, not no-referrer: with no-referrer browsers send "Origin: null" on the form POST.
    'referrer-policy': 'same-origin',
    'cache-control': 'no-store',
  };
}

/** Cookies are Secure everywhere but on loopback (where browsers allow plain-HTTP localhost). */
export function secure(req: IncomingMessage): boolean {
  return !isLoopbackHost(req.headers.host);
}

/** A browser's form POST carries Origin; it must be this very page's origin, never another site. */
export function sameOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  return origin !== undefined && origin === `http://${req.headers.host ?? ''}`;
}

/** Where to go after signing in: one of the pages, never elsewhere. */
export function safeNext(next: string | null | undefined): string {
  return next && /^\/approvals(\/[A-Za-z0-9_-]*)?$/.test(next) ? next : '/approvals';
}

export function cookies(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const text = await readSmall(req);
  try {
    const v: unknown = JSON.parse(text ?? '');
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  if (!req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')) return undefined;
  const text = await readSmall(req);
  return text === undefined ? undefined : new URLSearchParams(text);
}

/** A request body of at most MAX_FORM bytes as text; undefined when larger. */
async function readSmall(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
