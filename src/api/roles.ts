// Moved to src/spec/roles.ts. Kept only for tools/api-keys.ts until it imports src/spec (issue 11).
export { GLOBAL_ROLES, ORG_ROLES, PROJECT_ROLES } from '../spec/roles.js';
