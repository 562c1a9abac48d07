// Names a person reads instead of ids: learned once per call from the ids in its arguments (the read cache
// keeps repeats cheap, and a lookup the tool makes anyway shares its request), and never a reason for a call
// to fail: a lookup that fails or takes too long leaves the id. Projects may also be given by name.
import type { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import type { NameBook } from '../format/answers.js';
import { personName } from '../format/views/access.js';
import { configName } from '../format/views/alerts.js';
import { hostAddress } from '../format/views/deployment.js';
import type { Logger } from '../log.js';
import { cell, named } from '../untrusted.js';
import { ToolInputError } from './errors.js';

/** How long a call waits for its names before it answers with ids. */
const NAME_DEADLINE_MS = 2_000;

/** A project id as the platform makes them; anything else given as a projectId is taken as a name. */
const PROJECT_ID = /^[0-9a-f]{24}$/i;

type Kind = keyof NameBook | 'org';

const within = (signal: AbortSignal) => ({
  signal: AbortSignal.any([signal, AbortSignal.timeout(NAME_DEADLINE_MS)]),
});

export interface CallNames extends NameBook {
  /**
   * Looks up the project and host these arguments name (never an entity the tool reads itself: that one
   * it names from its own data); resolves, never rejects, when done.
   */
  learn(args: Record<string, unknown>, signal: AbortSignal): Promise<void>;
  /** For tools that take a user or configuration id without reading it. */
  learnUser(userId: string, signal: AbortSignal): Promise<void>;
  learnAlertConfig(projectId: string, alertConfigId: string, signal: AbortSignal): Promise<void>;
  /**
   * The API keys of the project's organization (or of orgId), so answers that name a key by its public key
   * (who acknowledged, who changed) also say its description. The platform does not say who owns a key.
   */
  learnKeys(where: { projectId?: string; orgId?: string }, signal: AbortSignal): Promise<void>;
  /** Looks up these projects' names (the projects a change of roles touches). */
  learnProjects(projectIds: string[], signal: AbortSignal): Promise<void>;
  /** Looks up these organizations' names (GET /orgs/{id}; the id stays where it does not answer). */
  learnOrgs(orgIds: string[], signal: AbortSignal): Promise<void>;
  /** The projects and organizations of these roles. */
  learnRoles(roles: Array<{ groupId?: string; orgId?: string }>, signal: AbortSignal): Promise<void>;
  /** A projectId argument as an id: a project's name is looked up among the projects the key sees. */
  projectIdOf(value: string, signal: AbortSignal): Promise<string>;
  /** The name learned for this id, whatever it names (a project, user, host or configuration), if any. */
  nameOf(id: string): string | undefined;
}

export function callNames(api: ApiClient, logger?: Logger): CallNames {
  const known = new Map<string, string | undefined>();
  const label = (kind: Exclude<Kind, 'key'>) => (id: string) => named(known.get(`${kind}:${id}`), id);

  // One read of a project per call serves its name and its organization (for the organization's keys).
  const projects = new Map<string, ReturnType<ApiClient['projects']['get']>>();
  const projectOf = (id: string, o: { signal: AbortSignal }) => {
    let p = projects.get(id);
    if (!p) {
      p = api.projects.get(id, o);
      projects.set(id, p);
    }
    return p;
  };

  // Names never starve the call's own reads: with the request budget low, answers show ids.
  const spare = () => api.budget?.spare() ?? true;

  async function lookUp(kind: Kind, id: string, load: () => Promise<string | undefined>) {
    if (known.has(`${kind}:${id}`) || !spare()) return;
    known.set(`${kind}:${id}`, undefined);
    try {
      known.set(`${kind}:${id}`, await load());
    } catch (e) {
      logger?.debug('name look-up failed; the answer shows the id', { kind, error: String(e) });
    }
  }

  return {
    project: label('project'),
    projectName: (id) => known.get(`project:${id}`),
    nameOf: (id) =>
      (['project', 'user', 'host', 'alertConfig'] as const)
        .map((kind) => known.get(`${kind}:${id}`))
        .find((n) => n !== undefined),
    user: label('user'),
    host: label('host'),
    org: label('org'),
    alertConfig: label('alertConfig'),
    key: (k) => {
      const desc = known.get(`key:${k}`);
      return desc === undefined ? k : `key ${named(desc, k)}`;
    },

    async learnProjects(projectIds, signal) {
      const o = within(signal);
      await Promise.all(
        [...new Set(projectIds)].map((id) =>
          lookUp('project', id, async () => (await projectOf(id, o)).name),
        ),
      );
    },

    async learnOrgs(orgIds, signal) {
      const o = within(signal);
      await Promise.all(
        [...new Set(orgIds)].map((id) => lookUp('org', id, async () => (await api.orgs.get(id, o)).name)),
      );
    },

    async learnRoles(roles, signal) {
      const [groups, orgs] = [roles.flatMap((r) => r.groupId ?? []), roles.flatMap((r) => r.orgId ?? [])];
      await Promise.all([this.learnProjects(groups, signal), this.learnOrgs(orgs, signal)]);
    },

    async learn(args, signal) {
      const o = within(signal);
      const str = (k: string) => (typeof args[k] === 'string' ? (args[k] as string) : undefined);
      const projectId = str('projectId');
      const hostId = str('hostId');
      await Promise.all([
        projectId && lookUp('project', projectId, async () => (await projectOf(projectId, o)).name),
        projectId &&
          hostId &&
          lookUp('host', hostId, async () => hostAddress(await api.hosts.get(projectId, hostId, o))),
      ]);
    },

    async learnKeys(where, signal) {
      const o = within(signal);
      if (!spare()) return;
      try {
        const orgId = where.orgId ?? (where.projectId && (await projectOf(where.projectId, o)).orgId);
        if (!orgId) return;
        const keys = await api.apiKeys.listForOrg(orgId, { itemsPerPage: 500 }, o);
        for (const k of keys.results) if (k.publicKey && k.desc) known.set(`key:${k.publicKey}`, k.desc);
      } catch (e) {
        logger?.debug('API keys not readable; answers show public keys', { error: String(e) });
      }
    },

    learnUser: (userId, signal) =>
      lookUp('user', userId, async () => personName(await api.users.get(userId, within(signal)))),

    learnAlertConfig: (projectId, alertConfigId, signal) =>
      lookUp('alertConfig', alertConfigId, async () =>
        configName(await api.alertConfigs.get(projectId, alertConfigId, within(signal))),
      ),

    async projectIdOf(value, signal) {
      if (PROJECT_ID.test(value)) return value;
      try {
        const p = await api.projects.byName(value, { signal });
        known.set(`project:${p.id}`, p.name);
        return p.id;
      } catch (e) {
        if (e instanceof ApiError && e.status === 404)
          throw new ToolInputError(
            `No project named "${cell(value, 60)}" is visible to this API key. Give a project's id or name (list_projects shows them), or "all" for every project (list tools).`,
          );
        throw e;
      }
    },
  };
}
