// Role names (API reference › Resources › Role names). A role assignment is {orgId?, groupId?, roleName}; global
// roles carry neither id.

export const ORG_ROLES = ['ORG_OWNER', 'ORG_MEMBER', 'ORG_GROUP_CREATOR', 'ORG_READ_ONLY'] as const;
export const PROJECT_ROLES = [
  'GROUP_AUTOMATION_ADMIN',
  'GROUP_BACKUP_ADMIN',
  'GROUP_DATA_ACCESS_ADMIN',
  'GROUP_DATA_ACCESS_READ_ONLY',
  'GROUP_DATA_ACCESS_READ_WRITE',
  'GROUP_MONITORING_ADMIN',
  'GROUP_OWNER',
  'GROUP_READ_ONLY',
  'GROUP_USER_ADMIN',
] as const;
export const GLOBAL_ROLES = [
  'GLOBAL_AUTOMATION_ADMIN',
  'GLOBAL_BACKUP_ADMIN',
  'GLOBAL_MONITORING_ADMIN',
  'GLOBAL_OWNER',
  'GLOBAL_READ_ONLY',
  'GLOBAL_USER_ADMIN',
] as const;
/** Every role name: organization, project, then global. */
export const ROLE_NAMES = [...ORG_ROLES, ...PROJECT_ROLES, ...GLOBAL_ROLES] as const;

export type OrgRole = (typeof ORG_ROLES)[number];
export type ProjectRole = (typeof PROJECT_ROLES)[number];
export type GlobalRole = (typeof GLOBAL_ROLES)[number];
export type RoleName = (typeof ROLE_NAMES)[number];
