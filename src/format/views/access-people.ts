// The people the access area finds, as a person sees them: each person as a block with one line per role
// (named by project and organization where known), and the find_user answer around them.

import type { User } from '../../api/types.js';
import { cell } from '../../untrusted.js';
import type { FormatContext, ToolAnswer } from '../answers.js';
import { plural } from '../markdown.js';
import { redact } from '../redact.js';
import { fullName } from './access.js';
import { type Missing, missingLines } from './projects-all.js';

/** What a role label needs to name where a role applies: project and organization names, where known. */
interface RolePlaces {
  projects: ReadonlyMap<string, string>;
  orgs: ReadonlyMap<string, string>;
}

/** "GROUP_READ_ONLY @ project search-staging (5f…)", "ORG_MEMBER @ org Acme (49…)": whole, never cut. */
function placedRole(r: { roleName?: string; orgId?: string; groupId?: string }, at: RolePlaces): string {
  if (r.groupId) {
    const n = at.projects.get(r.groupId);
    return `${r.roleName} @ project ${n ? `${n} (${r.groupId})` : r.groupId}`;
  }
  if (r.orgId) {
    const n = at.orgs.get(r.orgId);
    return `${r.roleName} @ org ${n ? `${n} (${r.orgId})` : r.orgId}`;
  }
  return `${r.roleName} (global)`;
}

/**
 * One person as a block (for the inside of a data fence): who they are on one line, then one line per role,
 * so that no role is ever cut to fit a table cell.
 */
function personBlock(u: User, at: RolePlaces): string {
  const who = [
    `**${cell(fullName(u) || u.username, 100)}**`,
    `username ${cell(u.username, 120)}`,
    ...(u.emailAddress && u.emailAddress !== u.username ? [`email ${cell(u.emailAddress, 120)}`] : []),
    `userId ${cell(u.id, 40)}`,
  ].join(' · ');
  const roles = u.roles ?? [];
  return [
    who,
    ...(roles.length
      ? roles.map((r) => `- ${cell(placedRole(r, at), 300)}`)
      : ['- no roles (an invitation may be pending)']),
  ].join('\n');
}

/** What find_user found, and how: the words of what was sought, and what a search could not read. */
export interface Found {
  people: User[];
  places: RolePlaces;
  /** What was searched for, in words, for the headline and the "not found" answer. */
  sought: string;
  /** A search over the members of the projects the key sees (not a lookup by id, username or project). */
  searched?: { read: number; failed: number; projects: number; missing: Missing[]; partial?: string };
  /** The username given, when no user has exactly it and it was searched for as part of a name instead. */
  notExactly?: string;
}

/** What the answer says before the people: what the search did not do, and why. */
function foundNotes(r: Found): string[] {
  const notes: string[] = [];
  if (r.notExactly !== undefined)
    notes.push(
      `No user has exactly the username "${cell(r.notExactly, 120)}"; searched for it as part of a name, username or email.`,
    );
  const s = r.searched;
  // Which projects' members are not in the search, and why: out of time or budget, or refused.
  if (s?.missing.length) notes.push(...missingLines(s));
  return notes;
}

/** The find_user answer: the people as blocks, with roles by project, and the next step. */
export function foundAnswer(r: Found, members: string | undefined, f: FormatContext): ToolAnswer {
  const n = r.people.length;
  const scope = r.searched && `the members of ${plural(r.searched.read, 'project')}`;
  const title = members
    ? `# Members of project ${f.names.project(members)} — ${n}`
    : `# People matching ${cell(r.sought, 120)} — ${n} found${scope ? ` among ${scope}` : ''}`;
  const results = redact(r.people).map((u) => ({
    ...u,
    roleNames: (u.roles ?? []).map((x) => placedRole(x, r.places)),
  }));
  const lines = [title, ...foundNotes(r)];
  if (n === 0)
    lines.push(
      members
        ? 'This project has no members the key can see.'
        : `No one${scope ? ` among ${scope}` : ''} has a name, username or email holding ${cell(r.sought, 120)}. Try a shorter part of the name, or list_projects and find_user with a projectId to list a project's members.`,
    );
  else {
    lines.push(
      f.fence.notice,
      f.fence.wrap(
        redact(r.people)
          .map((u) => personBlock(u, r.places))
          .join('\n\n'),
      ),
    );
    lines.push(
      n > 1 && !members
        ? 'Next: pick the person by name with whoever asked, then update_user_roles with their userId; nothing is changed on a guess.'
        : 'Next: update_user_roles with the userId, mode add or remove, and roles whose groupId is a project id or name.',
    );
  }
  return {
    text: lines.join('\n'),
    structured: { totalCount: n, pageNum: 1, itemsPerPage: Math.max(n, 1), results },
  };
}
