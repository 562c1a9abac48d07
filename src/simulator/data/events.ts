// The demo's routine events: which types occur how often, how many, how old, on which databases, and who adds
// keys and users. ../derive-events.ts draws a month of events from these and the world (world.ts).

import type { EventType } from '../../vocabulary/index.js';
import { HOUR } from './gen.js';

/** How often each routine project event type occurs (relative weights). */
export const PROJECT_EVENT_WEIGHTS: ReadonlyArray<readonly [EventType, number]> = [
  ['AUTOMATION_CONFIG_PUBLISHED_AUDIT', 12],
  ['DATA_EXPLORER', 10],
  ['DATA_EXPLORER_CRUD', 6],
  ['USER_ROLES_CHANGED_AUDIT', 2],
  ['JOINED_GROUP', 1],
  ['API_KEY_ADDED_TO_GROUP', 1],
];

export const GLOBAL_EVENT_WEIGHTS: ReadonlyArray<readonly [EventType, number]> = [
  ['SUCCESSFUL_LOGIN_AUDIT', 10],
  ['UNSUCCESSFUL_LOGIN_AUDIT', 2],
  ['API_KEY_CREATED', 1],
  ['API_KEY_ACCESS_LIST_ENTRY_ADDED', 1],
  ['USER_CREATED_AUDIT', 1],
  ['JOINED_ORG', 1],
  ['USER_ROLES_CHANGED_AUDIT', 1],
  ['GROUP_TAGS_CHANGED', 1],
  ['DAEMON_DOWN', 1],
  ['DAEMON_UP', 1],
];

export const PROJECT_EVENT_COUNT = 1000;
/** Routine events are older than a day: the last day shows only what the world did. */
export const QUIET_RECENT = 26 * HOUR;
export const GLOBAL_EVENT_COUNT = 160;

/** Databases and collections by project, for data explorer events and automation diffs. */
export const DATABASES: Record<string, Array<[string, string[]]>> = {
  'payments-prod': [
    ['payments', ['transactions', 'refunds', 'merchants']],
    ['ledger', ['entries', 'balances']],
  ],
  'search-staging': [['catalog', ['products', 'synonyms']]],
  'analytics-prod': [
    ['events', ['clickstream', 'sessions']],
    ['reports', ['daily_rollups']],
  ],
  'platform-dev': [['sandbox', ['feature_flags', 'scratch']]],
};

/** Who adds keys and users, and changes the organization's tags, in the history. */
export const ADMIN = 'ops-admin@example.com';
export const SOFIA = 'sofia.alvarez@example.com';
