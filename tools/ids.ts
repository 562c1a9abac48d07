// One described schema per identifier, saying which tool yields it. Ids are validated as safe path
// segments only: real servers' formats vary (api-facts), and a malformed id comes back as a clear 404.
import { z } from 'zod';

export const safeSegment = (what: string, from: string) =>
  z
    .string()
    .min(1, `${what} must not be empty`)
    .max(200, `${what} is too long`)
    .refine((s) => !/[/?#%\\\u0000-\u001F\u007F]/.test(s) && s !== '.' && s !== '..', {
      message: `${what} must be a plain id (no "/", "?", "#", "%", "..", or control characters)`,
    })
    .describe(`${what}; ${from}`);

const hex24 = 'a 24-hex id';
export const ids = {
  project: safeSegment('Project (group) id', `${hex24} from list_projects; defaults to DBOPS_PROJECT_ID`),
  org: safeSegment('Organization id', `${hex24} from list_projects (orgId); defaults to DBOPS_ORG_ID`),
  alertConfig: safeSegment('Alert configuration id', `${hex24} from list_alert_configs`),
  alert: safeSegment('Alert id', `${hex24} from list_open_alerts or list_open_alerts_for_config`),
  globalAlertConfig: safeSegment('Global alert configuration id', `${hex24} from list_global_alert_configs`),
  globalAlert: safeSegment('Global alert id', `${hex24} from list_open_global_alerts_for_config`),
  window: safeSegment('Maintenance window id', `${hex24} from list_maintenance_windows`),
  user: safeSegment('User id', `${hex24} from create_user, create_first_user or an event's userId`),
  host: safeSegment('Host id', "a 32-hex id from list_hosts or an alert's hostId"),
  partition: safeSegment(
    'Disk partition name',
    'a device name such as nvme0n1, xvdb or sda1, from list_hosts',
  ),
  event: safeSegment('Event id', `${hex24} from list_project_events`),
};

export const page = {
  pageNum: z.number().int().min(1).max(100_000).optional().describe('1-based page number (default 1)'),
  itemsPerPage: z
    .number()
    .int()
    .min(1)
    .max(500)
    .optional()
    .describe('Rows per page, 1..500 (default 20 in text; the API allows up to 500)'),
  responseFormat: z
    .enum(['concise', 'detailed'])
    .optional()
    .describe('concise (default): the fields a person acts on; detailed: every field in the text too'),
};

export const isoTime = (what: string) =>
  z.iso.datetime({
    offset: true,
    message: `${what} must be an ISO 8601 timestamp such as 2026-11-21T14:00:00Z`,
  });
