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

/** One project's line in an installation-wide triage: how much is on fire, and the call that looks closer. */
interface ProjectAlarm {
  projectId: string;
  name?: string;
  open: number;
  unacknowledged: number;
  /** When the oldest open alert began. */
  since?: string;
  /** Why the project could not be read, when it could not. */
  error?: string;
}

/** Most urgent first: unacknowledged alerts, then open ones, then the oldest; unreadable projects after. */
export const byUrgency = (a: ProjectAlarm, b: ProjectAlarm) =>
  Number(Boolean(a.error)) - Number(Boolean(b.error)) ||
  b.unacknowledged - a.unacknowledged ||
  b.open - a.open ||
  (Date.parse(a.since ?? '') || Infinity) - (Date.parse(b.since ?? '') || Infinity);
