// Minting API keys. A new key's private half is returned once by the platform; it goes to a 0600 file through
// ctx.secrets and the model sees it masked with the file's path (in full only if the operator chose so).
import { z } from 'zod';
import { fields } from '../src/format/markdown.js';
import { type KeptKey, keyNote, roleLabel, shownKey } from '../src/format/views/keys.js';
import { keepKey } from '../src/policy/secrets.js';
import { ids, text, upTo } from '../src/tool/ids.js';
import {
  defineTool,
  type FormatContext,
  recordOutput,
  type ToolAnswer,
  ToolInputError,
} from '../src/tool/index.js';
import { cell } from '../src/untrusted.js';
import { ORG_ROLES, PROJECT_ROLES } from '../src/vocabulary/index.js';

function keyAnswer(title: string, key: KeptKey, f: FormatContext): ToolAnswer {
  const k = shownKey(key);
  const body = fields([
    ['Description', k.desc],
    ['API key id', k.id],
    ['Public key', k.publicKey],
    ['Roles', (k.roles ?? []).map((r) => roleLabel(r, f.names.project))],
  ]);
  return {
    text: [
      `# ${title}`,
      f.fence.notice,
      f.fence.wrap(body),
      keyNote(k),
      `**Private key**: ${cell(k.privateKey, 100)}`,
    ].join('\n'),
    structured: { record: k },
  };
}

const desc = text('desc', 250).describe('What it is for and who holds it');

const mintNote =
  'Its private key is written to a 0600 file on the server and shown masked, never in this chat.';

export const createOrgApiKey = defineTool({
  name: 'create_org_api_key',
  title: 'Create an organization API key',
  description:
    'Mints an organization API key with organization roles; its private key goes to a file. Use only when asked; for one project use create_project_api_key.',
  kind: 'destructive',
  checkWith: 'list_global_events',
  input: {
    orgId: ids.org.optional(),
    desc,
    roles: upTo(z.enum(ORG_ROLES), 4, 'roles').min(1).describe('Roles of the key'),
  },
  output: recordOutput,
  preview: async (_ctx, args) => {
    const orgId = args.orgId;
    return {
      action: `Create an API key in organization ${orgId} with roles ${args.roles.join(', ')}`,
      target: { org: orgId },
      changes: [
        { field: 'desc', to: args.desc },
        { field: 'roles', to: args.roles.join(', ') },
      ],
      notes: [mintNote, 'Anyone holding the key acts with these roles until it is deleted.'],
    };
  },
  run: async (ctx, args) =>
    keepKey(
      ctx.secrets,
      await ctx.api.apiKeys.createForOrg(args.orgId, { desc: args.desc, roles: args.roles }, ctx.req),
    ),
  format: (key, args, f) => keyAnswer(`API key created in organization ${args.orgId}`, key, f),
});

export const createProjectApiKey = defineTool({
  name: 'create_project_api_key',
  title: 'Create a project API key',
  description:
    'Mints an API key for one project, with project roles; its private key goes to a file. Use only when asked for a project key.',
  kind: 'destructive',
  checkWith: 'list_project_events',
  input: {
    projectId: ids.project.optional(),
    desc: desc.optional(),
    roles: upTo(z.enum(PROJECT_ROLES), 9, 'roles')
      .min(1)
      .optional()
      .describe('Roles of the key; give desc, roles or both'),
  },
  output: recordOutput,
  check: checkProjectKey,
  preview: async (ctx, args) => {
    const projectId = args.projectId;
    return {
      action: `Create an API key for project ${ctx.names.project(projectId)}${args.roles ? ` with roles ${args.roles.join(', ')}` : ''}`,
      target: { project: projectId },
      changes: [
        ...(args.desc ? [{ field: 'desc', to: args.desc }] : []),
        ...(args.roles ? [{ field: 'roles', to: args.roles.join(', ') }] : []),
      ],
      notes: [mintNote, "The key also becomes a member of the project's organization."],
    };
  },
  run: async (ctx, args) => {
    const body = { desc: args.desc, roles: args.roles };
    return keepKey(ctx.secrets, await ctx.api.apiKeys.createForProject(args.projectId, body, ctx.req));
  },
  format: (key, args, f) =>
    keyAnswer(`API key created for project ${f.names.project(args.projectId)}`, key, f),
});

function checkProjectKey(args: { desc?: string; roles?: string[] }): void {
  if (args.desc === undefined && args.roles === undefined)
    throw new ToolInputError('Give desc, roles or both for the new project API key.');
}

export const apiKeyTools = [createOrgApiKey, createProjectApiKey];
