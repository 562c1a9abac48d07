// The simulator's route table: every endpoint of the spec plus the read (and one create) endpoints marked
// beyondSpec. Each area lives in its own file; this file only assembles them.
//
// Links: every record whose spec table has `links` carries [{rel: 'self', href}] (alerts, alert configs and
// maintenance windows included, never []); agents, integrations and automation processes have no links in
// the spec and get none. Other relations use the neutral base https://dbops.example/rels/.
//
// Roles each action needs (the spec's table where it gives one; sensible elsewhere). "Project" roles are
// checked in the project of the path: a key with no role there (and no ORG_OWNER/ORG_READ_ONLY of its
// organization, no GLOBAL_* role) gets 401 NOT_IN_GROUP; a member without the role 401 USER_UNAUTHORIZED.
//
// | action                                              | GROUP_*                        | ORG_*                | GLOBAL_*                         |
// |-----------------------------------------------------|--------------------------------|----------------------|----------------------------------|
// | project reads (alert configs, alerts, windows,       | any project role               | ORG_OWNER,           | any global role                  |
// |   agents, automation, hosts, disks, events, project) |                                | ORG_READ_ONLY        |                                  |
// | enable/disable alert config, acknowledge alert,      | GROUP_OWNER,                   | ORG_OWNER            | GLOBAL_OWNER,                    |
// |   create/update/delete maintenance window            | GROUP_MONITORING_ADMIN         |                      | GLOBAL_MONITORING_ADMIN          |
// | integrations (put, list), project API key            | GROUP_OWNER                    | ORG_OWNER            | GLOBAL_OWNER                     |
// | organization API key                                 | —                              | ORG_OWNER of the org | GLOBAL_OWNER                     |
// | global alert configs and alerts (list, get, ack)     | —                              | —                    | GLOBAL_OWNER, GLOBAL_MONITORING_ADMIN |
// | global events                                        | —                              | —                    | any global role (all include read-only) |
// | matcher field names                                  | any role at all                |                      |                                  |
// | create user                                          | GROUP_OWNER/GROUP_USER_ADMIN of each project role given; ORG_OWNER of each org role given; GLOBAL_OWNER or GLOBAL_USER_ADMIN for any |
// | update user roles                                    | own account (removals; additions need the rights below); else an administrator of a scope the user belongs to: GROUP_OWNER/GROUP_USER_ADMIN, ORG_OWNER, GLOBAL_OWNER/GLOBAL_USER_ADMIN; each added or removed role needs administration of its scope |
// | add a global role to a user                          | GLOBAL_OWNER (GLOBAL_USER_ADMIN for roles below GLOBAL_OWNER), else 403 CANNOT_ADD_GLOBAL_ROLE |
// | read a user's access list                            | the key's own user; GLOBAL_OWNER for any, else 401 ACCESS_LIST_ACCESS_DENIED |
// | get a user (beyond the spec)                         | own account, any global role, or a role in a project/org the user belongs to |
// | list projects (beyond the spec)                      | lists the projects where the key is a member |
// | create the first user                                | none (no API key)              |                      |                                  |

import type { SimRoute } from '../types.js';
import { accessRoutes } from './access.js';
import { alertRoutes } from './alerts.js';
import { deploymentRoutes } from './deployment.js';
import { eventRoutes } from './events.js';
import { integrationRoutes } from './integrations.js';
import { projectRoutes } from './projects.js';
import { windowRoutes } from './windows.js';

// The order is the one the routes were first written in (it orders a 405's Allow header).
export const routes: SimRoute[] = [
  ...projectRoutes,
  ...alertRoutes,
  ...accessRoutes,
  ...windowRoutes,
  ...integrationRoutes,
  ...deploymentRoutes,
  ...eventRoutes,
];
