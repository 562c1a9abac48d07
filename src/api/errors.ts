// One error type for everything the API client can fail with. The message says what happened, why, and
// what to do next, so the MCP layer can show it as is. Server text is untrusted: it is sanitized and
// bounded here, and nothing secret (keys, Authorization) is ever part of a message.

import { sanitize } from '../untrusted.js';

interface ApiErrorInit {
  /** HTTP status; 0 when no answer arrived (network failure, timeout). */
  status: number;
  errorCode?: string;
  detail?: string;
  method: string;
  /** API path without query, e.g. /groups/abc/alerts/def. */
  path: string;
  retryAfterSeconds?: number;
  /** Overrides the generated message (network and timeout errors). */
  message?: string;
  cause?: unknown;
  /** A change was sent and no answer came back: the platform may have applied it. */
  uncertain?: boolean;
}

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly errorCode: string | undefined;
  readonly detail: string | undefined;
  readonly method: string;
  readonly path: string;
  readonly retryAfterSeconds: number | undefined;
  /** A change that may have been applied although no answer said so (never retry it blindly). */
  readonly uncertain: boolean;

  constructor(init: ApiErrorInit) {
    super(init.message ?? describe(init), init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.errorCode = init.errorCode;
    this.detail = init.detail;
    this.method = init.method;
    this.path = init.path;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.uncertain = init.uncertain === true;
  }

  /** What to show a person (the message already is that). */
  toUserMessage(): string {
    return this.message;
  }

  /**
   * The same error with advice added to its message (what it may mean, what to do next): every field and the
   * cause kept; `uncertain` set when the change may have been applied all the same.
   */
  withAdvice(advice: string, o: { uncertain?: boolean } = {}): ApiError {
    return new ApiError({
      status: this.status,
      errorCode: this.errorCode,
      detail: this.detail,
      method: this.method,
      path: this.path,
      retryAfterSeconds: this.retryAfterSeconds,
      uncertain: this.uncertain || o.uncertain === true,
      cause: this,
      message: `${this.message} ${advice}`,
    });
  }
}

/** Untrusted text made safe for a one-line message: no controls or bidi marks, collapsed, bounded. */
export function sanitizeText(text: string, max = 300): string {
  const flat = sanitize(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A short, readable excerpt of a non-JSON body (an HTML error page of a proxy, say). */
export function bodyExcerpt(body: string, max = 200): string {
  const text = body
    .replace(/<(script|style)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
  return sanitizeText(text, max);
}

// What each collection segment of a path is, for messages: [singular, plural].
const NOUNS: Record<string, [string, string]> = {
  groups: ['project', 'projects'],
  orgs: ['organization', 'organizations'],
  alertConfigs: ['alert configuration', 'alert configurations'],
  alerts: ['alert', 'alerts'],
  globalAlerts: ['global alert', 'global alerts'],
  globalAlertConfigs: ['global alert configuration', 'global alert configurations'],
  apiKeys: ['API key', 'API keys'],
  users: ['user', 'users'],
  accessList: ['access list', 'access list'],
  integrations: ['integration', 'integrations'],
  agents: ['agent', 'agents'],
  automationStatus: ['automation status', 'automation status'],
  maintenanceWindows: ['maintenance window', 'maintenance windows'],
  hosts: ['host', 'hosts'],
  disks: ['disk partition', 'disk partitions'],
  events: ['event', 'events'],
  globalEvents: ['global event', 'global events'],
  matchers: ['matcher', 'matchers'],
  fieldNames: ['matcher field names', 'matcher field names'],
};

function segments(path: string): string[] {
  return path
    .split('?')[0]!
    .split('/')
    .filter(Boolean)
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
}

/** The id that follows `collection` in the path, e.g. idAfter('/groups/p1/alerts/a2', 'alerts') → 'a2'. */
export function idAfter(path: string, collection: string): string | undefined {
  const segs = segments(path);
  const i = segs.lastIndexOf(collection);
  return i >= 0 ? segs[i + 1] : undefined;
}

const showId = (id: string) => JSON.stringify(sanitizeText(id, 80));

/** "update alert "a2" in project "p1"" from PATCH /groups/p1/alerts/a2. */
export function describeAction(method: string, path: string): string {
  const segs = segments(path).filter((s) => s !== 'full');
  if (segs[0] === 'unauth') return 'create the first user';
  // Pair up collection/id segments; the last pair decides the noun.
  const pairs: Array<{ name: string; id?: string }> = [];
  for (let i = 0; i < segs.length; i++) {
    const name = segs[i]!;
    const next = segs[i + 1];
    if (NOUNS[name] && next !== undefined && !NOUNS[next]) {
      pairs.push({ name, id: next });
      i++;
    } else pairs.push({ name });
  }
  const last = pairs.at(-1);
  if (!last) return `${method} ${path}`;
  const [one, many] = NOUNS[last.name] ?? [last.name, last.name];
  // Enclosing ids, innermost first: "alert configuration "c" in project "p"".
  const scope = pairs
    .slice(0, -1)
    .filter((p) => p.id !== undefined)
    .reverse()
    .map((p) => `${NOUNS[p.name]![0]} ${showId(p.id!)}`)
    .join(' in ');
  const target =
    last.id !== undefined
      ? `${one} ${showId(last.id)}`
      : method === 'POST'
        ? `${/^[aeiou]/i.test(one) ? 'an' : 'a'} ${one}`
        : many;
  const verbs: Record<string, string> = { POST: 'create', PUT: 'create or update', DELETE: 'delete' };
  const verb =
    method === 'GET'
      ? last.id !== undefined || one === many
        ? 'read'
        : 'list'
      : (verbs[method] ?? 'update');
  const preposition = method === 'GET' && last.id === undefined ? 'of' : 'in';
  return `${verb} ${target}${scope ? ` ${preposition} ${scope}` : ''}`;
}

// Roles the spec names for some endpoints; elsewhere the message stays generic.
function requiredRole(method: string, path: string): string | undefined {
  const segs = segments(path);
  if (segs[0] === 'globalEvents') return 'Global Read Only';
  if (segs[0] === 'globalAlertConfigs' && segs[2] === 'alerts')
    return 'Global Owner or Global Monitoring Admin';
  if (segs[0] === 'groups' && segs[2] === 'events') return 'Project Read Only';
  if (segs[0] === 'users' && segs.length === 2 && method === 'PATCH')
    return 'Owner of the organization or project';
  return undefined;
}

function notFound(e: ApiErrorInit, code: string): string {
  if (code === 'RESOURCE_NOT_FOUND') {
    return `The server has no endpoint ${e.method} ${e.path} (404 RESOURCE_NOT_FOUND). Check that DBOPS_BASE_URL points at the platform and that its version offers this operation.`;
  }
  // ALERT_CONFIG_NOT_FOUND / INVALID_ALERT_CONFIG_ID → which collection the bad id belongs to.
  const stem = code.replace(/^INVALID_/, '').replace(/_(NOT_FOUND|ID)$/, '');
  const collection: Record<string, string[]> = {
    GROUP: ['groups'],
    ORG: ['orgs'],
    ALERT_CONFIG: ['alertConfigs'],
    GLOBAL_ALERT_CONFIG: ['globalAlertConfigs'],
    ALERT: ['alerts', 'globalAlerts'],
    MAINTENANCE_WINDOW: ['maintenanceWindows'],
    WINDOW: ['maintenanceWindows'],
    HOST: ['hosts'],
    DEVICE: ['disks'],
    USER: ['users'],
    EVENT: ['events'],
    AGENT_TYPE_NAME: ['agents'],
  };
  const segs = segments(e.path);
  const name = (collection[stem] ?? []).find((c) => segs.includes(c));
  const id = name ? idAfter(e.path, name) : undefined;
  const noun = name ? NOUNS[name]![0] : stem.toLowerCase().replace(/_/g, ' ');
  const malformed = code.startsWith('INVALID_');
  // The field's look-ups by name (/users/byName/{name}, /groups/byName/{name}) searched for a name, not an id.
  const byName = id === 'byName' && name ? idAfter(e.path, 'byName') : undefined;
  if (byName !== undefined)
    return `Not found: no ${noun} named ${showId(byName)} (${e.status} ${code})${e.detail ? `: ${e.detail}` : '.'} Check the name.${name ? ` List the ${NOUNS[name]![1]} to see the names.` : ''}`;
  const what = id !== undefined ? `${noun} ${showId(id)}` : `the ${noun}`;
  const listHint = name ? ` List the ${NOUNS[name]![1]} to get valid ids.` : '';
  return `${malformed ? 'Malformed id for' : 'Not found:'} ${what} (${e.status} ${code})${e.detail ? `: ${e.detail}` : '.'} Check the id.${listHint}`;
}

function describe(e: ApiErrorInit): string {
  const code = e.errorCode;
  const tag = code ? `${e.status} ${code}` : `${e.status}`;
  const detail = e.detail ? `: ${e.detail}` : '';
  const call = `${e.method} ${e.path}`;
  if (e.status === 401) {
    if (code === 'USER_UNAUTHORIZED') {
      const role = requiredRole(e.method, e.path);
      return `The API key lacks the role needed to ${describeAction(e.method, e.path)} (401 USER_UNAUTHORIZED)${role ? `; this needs ${role}` : ''}. Ask an owner to grant the key a suitable role, or use a key that has it. Retrying will not help.`;
    }
    if (code === 'NOT_IN_GROUP') {
      const project = idAfter(e.path, 'groups');
      return `The API key is not a member of project ${project !== undefined ? showId(project) : '(unknown)'} (401 NOT_IN_GROUP). Add the key to that project, use a key of that project, or check the project id.`;
    }
    if (code) return `Not authorized to ${describeAction(e.method, e.path)} (${tag})${detail}`;
    return `Authentication failed for ${call} (401): the server rejected the API key. Check DBOPS_PUBLIC_KEY (the public key) and DBOPS_PRIVATE_KEY (its private key), and that the key still exists.`;
  }
  if (e.status === 403) {
    if (
      code === 'IP_ADDRESS_NOT_ON_ACCESS_LIST' ||
      (!code && /access list|whitelist/i.test(e.detail ?? ''))
    ) {
      return `This machine's IP address is not on the API key's access list (403${code ? ` ${code}` : ''})${detail}. Add this machine's address to the key's access list, then try again.`;
    }
    return `Forbidden: cannot ${describeAction(e.method, e.path)} (${tag})${detail}`;
  }
  if (e.status === 404) return notFound(e, code ?? 'RESOURCE_NOT_FOUND');
  if (e.status === 429) {
    const when =
      e.retryAfterSeconds !== undefined
        ? `Retry after ${e.retryAfterSeconds} s.`
        : 'Wait a minute, then retry.';
    return `Rate limited by the server (${tag})${detail}. ${when}`;
  }
  if (e.status === 400)
    return `The server rejected the request to ${describeAction(e.method, e.path)} (${tag})${detail || '.'}`;
  if (e.status === 409)
    return `Conflict: cannot ${describeAction(e.method, e.path)} (${tag})${detail || '.'}`;
  if (e.status === 405)
    return `The server does not allow ${call} (405). Check DBOPS_BASE_URL and the server version.`;
  if (e.status === 502 || e.status === 503 || e.status === 504) {
    return `The server or a gateway in front of it is unavailable (${tag}) for ${call}${detail}. Try again later.`;
  }
  if (e.status >= 500)
    return `The server failed on ${call} (${tag})${detail}. This is a server-side fault; try again later.`;
  return `Unexpected answer to ${call} (${tag})${detail}`;
}

/** Parses an HTTP error answer. Never throws: JSON or not, the result is an ApiError. */
export function errorFromResponse(r: {
  status: number;
  body: string;
  method: string;
  path: string;
  retryAfterSeconds?: number;
}): ApiError {
  let parsed: unknown;
  try {
    parsed = r.body.trim() ? JSON.parse(r.body) : undefined;
  } catch {
    parsed = undefined;
  }
  const base = { status: r.status, method: r.method, path: r.path, retryAfterSeconds: r.retryAfterSeconds };
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const o = parsed as Record<string, unknown>;
    const errorCode = typeof o.errorCode === 'string' ? sanitizeText(o.errorCode, 80) : undefined;
    const rawDetail =
      typeof o.detail === 'string' ? o.detail : typeof o.reason === 'string' ? o.reason : undefined;
    return new ApiError({ ...base, errorCode, detail: rawDetail ? sanitizeText(rawDetail) : undefined });
  }
  // Not the API's JSON: a proxy, gateway or web server answered. Say so, with a bounded excerpt.
  const excerpt = r.body.trim() ? bodyExcerpt(r.body) : '';
  const what = describe(base);
  return new ApiError({
    ...base,
    detail: excerpt || undefined,
    message: excerpt
      ? `${what} The answer was not the API's JSON (a proxy or web server may have answered): "${excerpt}"`
      : what,
  });
}
