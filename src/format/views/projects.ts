// How a project looks to a person: id, name, organization, age.

import type { Project } from '../../api/types.js';
import type { ListView, NameBook } from '../answers.js';
import { stamp, utc } from '../markdown.js';

/** The organization by name where GET /orgs/{id} answered, with its id (the id alone otherwise). */
export const projectList: ListView<Project> = {
  columns: ['projectId', 'name', 'organization', utc('created')],
  row: (p: Project, now: Date, names: NameBook) => [
    p.id,
    p.name,
    p.orgId && (names.org?.(p.orgId) ?? p.orgId),
    stamp(p.created, now),
  ],
};
