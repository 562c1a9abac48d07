// The key's steps, through the client the tools use: what it sees, its roles, and the tools those roles allow.
import { createApiClient } from '../api/client.js';
import { ApiError, sanitizeText } from '../api/errors.js';
import { type Config, settingHint } from '../config/index.js';
import { maxKindOf } from '../tool/index.js';
import { type Check, fail, pass } from './check.js';
import type { Target } from './target.js';
import { offeredTools } from './toolsets.js';

type Api = ReturnType<typeof createApiClient>;

interface Role {
  roleName?: string;
  groupId?: string;
  orgId?: string;
}

/** The key through the client the tools use: what it sees, its roles, and the tools those roles allow. */
export async function keyChecks(config: Config, target: Target): Promise<Check[]> {
  const api = createApiClient({
    baseUrl: target.baseUrl,
    publicKey: target.publicKey ?? '',
    privateKey: target.privateKey ?? '',
    timeoutMs: Math.min(config.timeoutMs, 15_000),
    maxRetries: 0,
    cacheTtlMs: 0,
    caFile: config.caFile,
    tlsInsecure: config.tlsInsecure,
    dialect: config.dialect,
  });
  try {
    let projects: Awaited<ReturnType<typeof api.projects.list>>;
    try {
      projects = await api.projects.list({ itemsPerPage: 500 });
    } catch (e) {
      const status = e instanceof ApiError ? e.status : 0;
      return [
        fail(
          'API key',
          sanitizeText((e as Error).message, 300),
          status === 401
            ? `Check ${settingHint('publicKey')} and ${settingHint('privateKey')}`
            : 'See the message',
        ),
      ];
    }
    const checks = [
      pass(
        'API key',
        `${target.demo ? 'the demo key is ' : ''}accepted; it sees ${projects.totalCount} project(s)`,
      ),
    ];
    const names = new Map(projects.results.map((p) => [p.id, sanitizeText(String(p.name ?? p.id), 60)]));
    const orgIds = [...new Set(projects.results.map((p) => p.orgId).filter((o): o is string => Boolean(o)))];
    if (config.orgId && !orgIds.includes(config.orgId)) orgIds.unshift(config.orgId);
    const roles = await keyRoles(api, target.publicKey ?? '', orgIds);
    checks.push(
      roles === undefined
        ? pass(
            'key roles',
            "not readable with this key (the organization's key list needs a role in that organization); the platform will refuse what the key may not do",
          )
        : roleCheck(config, roles, names),
    );
    return checks;
  } finally {
    await api.close();
  }
}

/** The key's roles, from the key list of the first organization that lets it read that list. */
async function keyRoles(api: Api, publicKey: string, orgIds: string[]): Promise<Role[] | undefined> {
  for (const orgId of orgIds.slice(0, 20)) {
    try {
      const keys = await api.apiKeys.listForOrg(orgId, { itemsPerPage: 500 });
      const mine = keys.results.find((k) => k.publicKey === publicKey);
      if (mine) return (mine.roles ?? []) as Role[];
    } catch {
      // Not readable with this key: try the next organization, then say so.
    }
  }
  return undefined;
}

/** Roles that only read (ORG_MEMBER alone grants no change either). */
const readsOnly = (r: string) => /READ_ONLY$/.test(r) || r === 'ORG_MEMBER';

/**
 * Which of the offered tools the key's roles allow: every read tool; the change tools only with a role that
 * writes, and then where that role reaches (a project, an organization, everywhere for a global role). A key
 * that only reads fails unless DBOPS_READ_ONLY matches it, since its change tools would all be refused.
 */
function roleCheck(config: Config, roles: Role[], projectNames: Map<string, string>): Check {
  const where = (r: Role) =>
    r.groupId
      ? `project ${projectNames.get(r.groupId) ?? r.groupId}`
      : r.orgId
        ? 'its organization'
        : 'every organization';
  const named = (rs: Role[]) => rs.map((r) => `${r.roleName} (${where(r)})`).join(', ');
  const list = named(roles) || 'none';
  const tools = offeredTools(config);
  const reads = tools.filter((t) => maxKindOf(t) === 'read');
  const changes = tools.filter((t) => maxKindOf(t) !== 'read');
  const writers = roles.filter((r) => r.roleName && !readsOnly(r.roleName));
  if (!writers.length) {
    if (changes.length)
      return fail(
        'key roles',
        `${list} only read: the ${reads.length} read tools work, and the platform would refuse all ${changes.length} change tools offered (${changes
          .slice(0, 3)
          .map((t) => t.name)
          .join(', ')}…)`,
        `Set ${settingHint('readOnly', true)} (only read tools are offered), or give the key a role that writes`,
      );
    return pass('key roles', `${list}: the ${reads.length} read tools offered all work`);
  }
  const reach =
    writers.length === roles.length
      ? 'these roles reach'
      : `${named(writers)} reach${writers.length > 1 ? '' : 'es'}`;
  return pass(
    'key roles',
    `${list}: the ${reads.length} read tools work${changes.length ? `, and the ${changes.length} change tools where ${reach}` : ''}`,
  );
}
