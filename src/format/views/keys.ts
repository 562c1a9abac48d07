// How an API key and a role look to a person: the kept key (its private half masked, with its file) and
import type { ApiKey } from '../../api/types.js';
import { redact } from '../redact.js';
// role labels ("GROUP_OWNER @ project …").

export type KeptKey = ApiKey & {
  privateKeyFile?: string;
  /** The platform sent the private key masked: it was not saved, and it is not usable. */
  privateKeyMasked?: boolean;
  /** The older first-user answer: the key as one string, without public key or roles. */
  legacy?: boolean;
};

/** The kept key as shown: everything else redacted; privateKey is already what the keeper allows. */
export function shownKey(k: KeptKey): KeptKey {
  return {
    ...redact(k),
    privateKey: k.privateKey,
    ...(k.privateKeyFile ? { privateKeyFile: k.privateKeyFile } : {}),
    ...(k.privateKeyMasked ? { privateKeyMasked: true } : {}),
  };
}

/** Lines about where the private key went, outside the data fence: this is the server's own text. */
export function keyNote(k: KeptKey): string {
  if (!k.privateKey) return 'The platform returned no private key.';
  if (k.privateKeyMasked)
    return "The platform sent the private key already masked, so there is no usable secret to store and none was saved. Generate a new private key for this API key in the platform's user interface (its API key settings), or delete the key if nobody can use it.";
  if (k.privateKeyFile)
    return `The private key is stored in ${k.privateKeyFile} (readable by the server's user only) and shown masked here; the platform never shows it again.`;
  return 'The private key is shown in full (DBOPS_REVEAL_SECRETS=true): store it now, the platform never shows it again.';
}

type Role = { roleName?: string; orgId?: string; groupId?: string };

/** "GROUP_OWNER @ project `payments-prod` (09c5…)" when `project` knows the name, else the id alone. */
export const roleLabel = (r: Role, project: (id: string) => string = (id) => id) =>
  r.groupId
    ? `${r.roleName} @ project ${project(r.groupId)}`
    : r.orgId
      ? `${r.roleName} @ org ${r.orgId}`
      : `${r.roleName} (global)`;
