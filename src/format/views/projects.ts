// How a project looks to a person: id, name, organization, age.

import type { Project } from '../../api/types.js';
import type { ListView } from '../answers.js';
import { age } from '../markdown.js';
export const projectList: ListView<Project> = {
  columns: ['projectId', 'name', 'orgId', 'created'],
  row: (p: Project, now: Date) => [p.id, p.name, p.orgId, age(p.created, now)],
};
