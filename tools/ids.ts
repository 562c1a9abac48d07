// One described schema per identifier, saying which tool yields it. Ids are validated as safe path
// segments only: real servers' formats vary (api-facts), and a malformed id comes back as a clear 404.
import { z } from 'zod';

// Length and character rules are checked in code, not spelled out in each JSON Schema (tools/list size).
export const safeSegment = (what: string, from: string) =>
  z
    .string()
    .refine((s) => s.length > 0 && s.length <= 200, { message: `${what} must be 1 to 200 characters` })
    .refine((s) => !/[/?#%\\\u0000-\u001F\u007F]/.test(s) && s !== '.' && s !== '..', {
      message: `${what} must be a plain id (no "/", "?", "#", "%", "..", or control characters)`,
    })
    .describe(`${what} ${from}`);

export const ids = {
  project: safeSegment('Project id', 'from list_projects (default: DBOPS_PROJECT_ID)'),
  org: safeSegment('Organization id', 'from list_projects (default: DBOPS_ORG_ID)'),
  alertConfig: safeSegment('Alert configuration id', 'from list_alert_configs'),
  alert: safeSegment('Alert id', 'from list_open_alerts'),
  globalAlertConfig: safeSegment('Global alert configuration id', 'from list_global_alert_configs'),
  globalAlert: safeSegment('Global alert id', 'from list_open_global_alerts_for_config'),
  window: safeSegment('Maintenance window id', 'from list_maintenance_windows'),
  user: safeSegment('User id', "from create_user or an event's userId"),
  host: safeSegment('Host id', "from list_hosts or an alert's hostId"),
  partition: safeSegment('Disk partition name', '(device name such as nvme0n1 or sda1)'),
  event: safeSegment('Event id', 'from list_project_events'),
};

export const page = {
  pageNum: z.number().int().min(1).optional().describe('Page, from 1'),
  itemsPerPage: z.number().int().min(1).max(500).optional().describe('Rows per page (default 20)'),
  responseFormat: z
    .enum(['concise', 'detailed'])
    .optional()
    .describe('detailed puts every field in the text'),
};

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 timestamp with a zone. Checked in code rather than by a long JSON Schema pattern (tools/list size). */
export const isoTime = (what: string) =>
  z
    .string()
    .max(40)
    .refine((s) => ISO.test(s) && !Number.isNaN(Date.parse(s)), {
      message: `${what} must be an ISO 8601 timestamp with a zone, such as 2026-11-21T14:00:00Z`,
    })
    .meta({ format: 'date-time' });
