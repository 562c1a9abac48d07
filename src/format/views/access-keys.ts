// The access area's keys as a person sees them: an API key (its private half masked, with its file), its
// answer when minted, the first user's answer (the one user who gets a key), and the previews of minting.
import type { ApiKey, User } from '../../api/types.js';
import { cell } from '../../untrusted.js';
import type { FormatContext, ToolAnswer } from '../answers.js';
import type { Preview } from '../consent.js';
import { fields } from '../markdown.js';
import { redact } from '../redact.js';
import { roleLabel, userPairs } from './access.js';

export type KeptKey = ApiKey & {
  privateKeyFile?: string;
  /** The platform sent the private key masked: it was not saved, and it is not usable. */
  privateKeyMasked?: boolean;
  /** The older first-user answer: the key as one string, without public key or roles. */
  legacy?: boolean;
};

/** The kept key as shown: everything else redacted; privateKey is already what the keeper allows. */
function shownKey(k: KeptKey): KeptKey {
  return {
    ...redact(k),
    privateKey: k.privateKey,
    ...(k.privateKeyFile ? { privateKeyFile: k.privateKeyFile } : {}),
    ...(k.privateKeyMasked ? { privateKeyMasked: true } : {}),
  };
}

/** Lines about where the private key went, outside the data fence: this is the server's own text. */
function keyNote(k: KeptKey): string {
  if (!k.privateKey) return 'The platform returned no private key.';
  if (k.privateKeyMasked)
    return "The platform sent the private key already masked, so there is no usable secret to store and none was saved. Generate a new private key for this API key in the platform's user interface (its API key settings), or delete the key if nobody can use it.";
  if (k.privateKeyFile)
    return `The private key is stored in ${k.privateKeyFile} (readable by the server's user only) and shown masked here; the platform never shows it again.`;
  return 'The private key is shown in full (DBOPS_REVEAL_SECRETS=true): store it now, the platform never shows it again.';
}

/** A minted key: its description, id, public key and roles fenced; where the private key went outside. */
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

export const orgKeyAnswer = (key: KeptKey, orgId: string, f: FormatContext) =>
  keyAnswer(`API key created in organization ${f.names.org?.(orgId) ?? orgId}`, key, f);

export const projectKeyAnswer = (key: KeptKey, projectId: string, f: FormatContext) =>
  keyAnswer(`API key created for project ${f.names.project(projectId)}`, key, f);

const mintNote =
  'Its private key is written to a 0600 file on the server and shown masked, never in this chat.';

export function orgKeyPreview(
  args: { orgId: string; desc: string; roles: string[] },
  org: (id: string) => string = (id) => id,
): Preview {
  return {
    action: `Create an API key in organization ${org(args.orgId)} with roles ${args.roles.join(', ')}`,
    target: { org: args.orgId },
    changes: [
      { field: 'desc', to: args.desc },
      { field: 'roles', to: args.roles.join(', ') },
    ],
    notes: [mintNote, 'Anyone holding the key acts with these roles until it is deleted.'],
  };
}

export function projectKeyPreview(
  args: { projectId: string; desc?: string; roles?: string[] },
  project: (id: string) => string,
): Preview {
  return {
    action: `Create an API key for project ${project(args.projectId)}${args.roles ? ` with roles ${args.roles.join(', ')}` : ''}`,
    target: { project: args.projectId },
    changes: [
      ...(args.desc ? [{ field: 'desc', to: args.desc }] : []),
      ...(args.roles ? [{ field: 'roles', to: args.roles.join(', ') }] : []),
    ],
    notes: [mintNote, "The key also becomes a member of the project's organization."],
  };
}

export function firstUserPreview(args: {
  username: string;
  firstName: string;
  lastName: string;
  emailAddress?: string;
  accessList?: string[];
}): Preview {
  return {
    action: `Create user ${args.username} through the unauthenticated first-user endpoint`,
    target: { username: args.username },
    changes: [
      { field: 'name', to: `${args.firstName} ${args.lastName}` },
      ...(args.emailAddress ? [{ field: 'emailAddress', to: args.emailAddress }] : []),
      ...(args.accessList ? [{ field: 'accessList', to: args.accessList.join(', ') }] : []),
    ],
    notes: [
      "On a fresh installation this user and a new API key get GLOBAL_OWNER; the key's private half goes to a 0600 file, not the chat.",
      'Later users created this way get no key and no global role.',
    ],
  };
}

/** The first user's answer: the user, then its key (in the older one-string form when the server sent that). */
export function firstUserAnswer(r: { user: User; key?: KeptKey }, f: FormatContext): ToolAnswer {
  const user = redact(r.user);
  const key = r.key && shownKey(r.key);
  const lines = [
    `# User ${cell(user.id, 40)} created`,
    f.fence.notice,
    f.fence.wrap(fields(userPairs(user))),
  ];
  if (key?.legacy) {
    // Older servers send the key as one string: there is no public key or role to show.
    lines.push(
      '### API key',
      'The server sent the key in its older form: one string, without a public key or roles.',
      keyNote(key),
      `**Key**: ${cell(key.privateKey, 100)}`,
    );
  } else if (key) {
    lines.push(
      '### API key',
      f.fence.wrap(
        fields([
          ['Public key', key.publicKey],
          ['Roles', (key.roles ?? []).map((r) => roleLabel(r))],
        ]),
      ),
      keyNote(key),
      `**Private key**: ${cell(key.privateKey, 100)}`,
    );
  } else lines.push('No API key was created (only the very first user gets one).');
  return { text: lines.join('\n'), structured: { user, ...(key ? { programmaticApiKey: key } : {}) } };
}
