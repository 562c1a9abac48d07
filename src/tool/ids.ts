// One described schema per identifier, saying which tool yields it. Ids are validated as safe path
// segments only: real servers' formats vary, and a malformed id comes back as a clear 404.
// Length, character and pattern rules are checked in code (.refine) rather than spelled out in every JSON
// Schema: tools/list stays small, and the messages name what to fix.
import { z } from 'zod';

const segment = (what: string) =>
  z
    .string()
    .refine((s) => s.length > 0 && s.length <= 200, { message: `${what} must be 1 to 200 characters` })
    .refine((s) => !/[/?#%\\\u0000-\u001F\u007F]/.test(s) && s !== '.' && s !== '..', {
      message: `${what} must be a plain id (no "/", "?", "#", "%", "..", or control characters)`,
    });

export const safeSegment = (what: string, from: string) => segment(what).describe(`${what} ${from}`);

/** An id whose field name already says what it is: the description says only where it comes from. */
export const idFrom = (what: string, description: string) => segment(what).describe(description);

export const ids = {
  project: idFrom('Project id', 'Id or name'),
  /** The list tools' scope: one project, or the whole installation (ALL_PROJECTS). */
  projects: idFrom('Project id', 'Id, name or all'),
  org: idFrom('Organization id', 'From list_projects; default DBOPS_ORG_ID'),
  alertConfig: idFrom('Alert configuration id', 'From list_alert_configs'),
  alert: idFrom('Alert id', 'From list_open_alerts'),
  globalAlertConfig: idFrom('Global alert configuration id', 'From list_global_alert_configs'),
  globalAlert: idFrom('Global alert id', 'From list_open_global_alerts_for_config'),
  window: idFrom('Maintenance window id', 'From list_maintenance_windows'),
  user: idFrom('User id', "From create_user or an event's userId"),
  host: idFrom('Host id', "From list_hosts or an alert's hostId"),
  partition: idFrom('Disk partition name', 'Device name, e.g. nvme0n1 or sda1'),
  event: idFrom('Event id', 'From list_project_events'),
};

/** A string of min..max characters (checked in code). */
export const text = (what: string, max: number, min = 1) =>
  z.string().refine((s) => s.length >= min && s.length <= max, {
    message:
      min > 0 ? `${what} must be ${min} to ${max} characters` : `${what} must be at most ${max} characters`,
  });

/** An array of at most `max` items; the bound is checked in code (no model needs it to act). */
export const upTo = <T extends z.ZodType>(item: T, max: number, what: string) =>
  z.array(item).refine((a) => a.length <= max, { message: `${what} takes at most ${max} items` });

/** An upper-case type name such as HOST or REPLICA_SET (alert and event types are open-ended lists). */
export const typeName = (message: string) =>
  z.string().refine((s) => s.length <= 100 && /^[A-Z][A-Z0-9_]*$/.test(s), { message });

/** A whole number from `min`, listed as `integer` without the safe-integer bound zod's int() adds. */
const whole = (what: string, min: number, max?: number, publishMin = true) =>
  z
    .number()
    .refine((n) => Number.isSafeInteger(n) && n >= min && (max === undefined || n <= max), {
      message: `${what} must be a whole number from ${min}${max === undefined ? '' : ` to ${max}`}`,
    })
    .meta({
      type: 'integer',
      ...(publishMin ? { minimum: min } : {}),
      ...(max === undefined ? {} : { maximum: max }),
    });

/**
 * Paging and detail, the same on every list: undescribed here, since tools/list would repeat the words on every
 * tool; the server instructions say them once (src/mcp/server.ts).
 */
export const page = {
  // Pages start at 1: checked in code, not spelled out in every schema.
  pageNum: whole('pageNum', 1, undefined, false).optional(),
  itemsPerPage: whole('itemsPerPage', 1, 500).optional(),
  responseFormat: z.enum(['concise', 'detailed']).optional(),
};

/**
 * ISO 8601 date-time with a zone: `Z`, `±hh:mm`, or `±hhmm` (the offset style of the platform vendor's own
 * documentation and some bodies).
 */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** The same instant in UTC, as every answer shows times (`2026-12-01T14:00:00Z`). */
const inUtc = (s: string) => {
  const t = Date.parse(s);
  // An invalid value is left as it is: the refinement before this reports it.
  return Number.isNaN(t) ? s : new Date(t).toISOString().replace('.000Z', 'Z');
};

/** An ISO 8601 timestamp with a zone, taken in any offset style and passed on in UTC. */
export const isoTime = (what: string) =>
  z
    .string()
    .refine((s) => s.length <= 40 && ISO_TIME.test(s) && !Number.isNaN(Date.parse(s)), {
      message: `${what} must be an ISO 8601 timestamp with a zone (Z, +hh:mm or +hhmm), such as 2026-11-21T14:00:00Z`,
    })
    // No `format: date-time`: several clients' validators do not know it and warn on every call; the
    // description and the message say what is taken.
    .overwrite(inUtc);

/** The acknowledgement's comment, for project and global alerts alike. */
export const ackComment = text('acknowledgementComment', 200, 0)
  .optional()
  .describe('Why; shown with the acknowledgement');
