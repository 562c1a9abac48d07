// The platform's records as the client returns them: what views and tools draw, without the client itself.
export type { Link, Page, PageQuery } from './paging.js';
export type {
  AccessListEntry,
  Agent,
  Alert,
  AlertConfig,
  ApiEvent,
  ApiKey,
  AutomationStatus,
  DiskPartition,
  FirstUser,
  GlobalAlertConfig,
  Host,
  Integration,
  MaintenanceWindow,
  Org,
  Process,
  Project,
  RoleAssignment,
  User,
} from './schemas.js';
