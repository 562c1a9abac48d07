// The person asking (src/identity/) as the MCP SDK carries them to handlers: in ctx.http.authInfo, with the
// address the request came from. Here, at the SDK's door, so that identity does not import the SDK.
import type { AuthInfo } from '@modelcontextprotocol/server';
import type { Person } from '../identity/index.js';

/**
 * The person as the MCP SDK carries it to handlers (ctx.http.authInfo), with the address the request came
 * from; consent state is bound to clientId.
 */
export function authInfoOf(person: Person, address?: string): AuthInfo {
  return {
    token: '',
    clientId: `person:${person.id}`,
    scopes: [],
    extra: { person, ...(address ? { address } : {}) },
  };
}

export function personOf(auth: AuthInfo | undefined): Person | undefined {
  return auth?.extra?.person as Person | undefined;
}

/** The caller's network address as the server saw it (HTTP). */
export function addressOf(auth: AuthInfo | undefined): string | undefined {
  return auth?.extra?.address as string | undefined;
}
