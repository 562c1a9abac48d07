// Response shapes, parsed at the client boundary. Lenient on purpose: unknown fields are kept, optional
// fields may be missing, and the variants real servers send are accepted. A response that
// still does not match is logged once per schema and returned as is: a surprise is never fatal.

import { z } from 'zod';
import type { Logger } from '../log.js';

const str = z.string().optional();
const num = z.number().optional();
const bool = z.boolean().optional();
const strs = z.array(z.string()).optional();

const LinkSchema = z.looseObject({ href: z.string(), rel: z.string() });
const links = z.array(LinkSchema).optional();

const RoleAssignmentSchema = z.looseObject({ orgId: str, groupId: str, roleName: z.string() });
export type RoleAssignment = z.infer<typeof RoleAssignmentSchema>;

export const ProjectSchema = z.looseObject({ id: z.string(), name: str, orgId: str, created: str, links });
export type Project = z.infer<typeof ProjectSchema>;
/** Beyond the spec (the field answers GET /orgs/{id}): an organization's id and name. */
export const OrgSchema = z.looseObject({ id: z.string(), name: str, links });
export type Org = z.infer<typeof OrgSchema>;

// Matchers are seen as {fieldName, …} and as {field, …}.
const MatcherSchema = z.looseObject({ fieldName: str, field: str, operator: str, value: str });
const ThresholdSchema = z.looseObject({ operator: str, threshold: num, units: str });
const NotificationSchema = z.looseObject({ typeName: str, delayMin: num, intervalMin: num });

export const AlertConfigSchema = z.looseObject({
  id: z.string(),
  groupId: str,
  created: str,
  updated: str,
  enabled: bool,
  eventTypeName: str,
  matchers: z.array(MatcherSchema).optional(),
  metricThreshold: z
    .looseObject({ metricName: str, mode: str, operator: str, threshold: num, units: str })
    .optional(),
  threshold: ThresholdSchema.optional(),
  notifications: z.array(NotificationSchema).optional(),
  typeName: str,
  links,
});
export type AlertConfig = z.infer<typeof AlertConfigSchema>;

const CurrentValueSchema = z.looseObject({ number: num, units: str });

export const AlertSchema = z.looseObject({
  id: z.string(),
  alertConfigId: str,
  groupId: str,
  created: str,
  updated: str,
  resolved: str,
  status: str,
  eventTypeName: str,
  acknowledgedUntil: str,
  acknowledgingUsername: str,
  acknowledgementComment: str,
  clusterId: str,
  clusterName: str,
  hostId: str,
  hostnameAndPort: str,
  replicaSetName: str,
  currentValue: CurrentValueSchema.optional(),
  metricName: str,
  lastNotified: str,
  sourceTypeName: str,
  tags: strs,
  typeName: str,
  links,
});
export type Alert = z.infer<typeof AlertSchema>;

export const GlobalAlertConfigSchema = z.looseObject({
  id: z.string(),
  enabled: bool,
  eventTypeName: str,
  links,
});
export type GlobalAlertConfig = z.infer<typeof GlobalAlertConfigSchema>;

export const ApiKeySchema = z.looseObject({
  id: str,
  desc: str,
  publicKey: str,
  privateKey: str,
  roles: z.array(RoleAssignmentSchema).optional(),
  links,
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const UserSchema = z.looseObject({
  id: z.string(),
  username: str,
  emailAddress: str,
  mobileNumber: str,
  firstName: str,
  lastName: str,
  roles: z.array(RoleAssignmentSchema).optional(),
  teamIds: strs,
  links,
});
export type User = z.infer<typeof UserSchema>;

// Older servers answered with `apiKey` (a string) where current ones send `programmaticApiKey`.
export const FirstUserSchema = z.looseObject({
  programmaticApiKey: ApiKeySchema.optional(),
  apiKey: z.union([z.string(), ApiKeySchema]).optional(),
  user: UserSchema,
});
export type FirstUser = z.infer<typeof FirstUserSchema>;

export const AccessListEntrySchema = z.looseObject({
  cidrBlock: str,
  ipAddress: str,
  created: str,
  lastUsed: str,
  lastUsedAddress: str,
  count: num,
  links,
});
export type AccessListEntry = z.infer<typeof AccessListEntrySchema>;

export const IntegrationSchema = z.looseObject({ type: z.string() });
export type Integration = z.infer<typeof IntegrationSchema>;

export const AgentSchema = z.looseObject({
  typeName: str,
  hostname: str,
  confCount: num,
  lastConf: str,
  stateName: str,
  pingCount: num,
  lastPing: str,
  isManaged: bool,
  tag: str,
});
export type Agent = z.infer<typeof AgentSchema>;

export const AgentLinksSchema = z.looseObject({ links: z.array(LinkSchema) });

const ProcessSchema = z.looseObject({
  name: str,
  hostname: str,
  lastGoalVersionAchieved: num,
  plan: strs,
  errorCode: num,
  errorCodeDescription: str,
  errorCodeHumanReadable: str,
  errorString: str,
});
export type Process = z.infer<typeof ProcessSchema>;

export const AutomationStatusSchema = z.looseObject({
  goalVersion: z.number(),
  processes: z.array(ProcessSchema),
});
export type AutomationStatus = z.infer<typeof AutomationStatusSchema>;

export const MaintenanceWindowSchema = z.looseObject({
  id: z.string(),
  groupId: str,
  created: str,
  updated: str,
  startDate: str,
  endDate: str,
  alertTypeNames: strs,
  description: str,
  links,
});
export type MaintenanceWindow = z.infer<typeof MaintenanceWindowSchema>;

export const HostSchema = z.looseObject({
  id: z.string(),
  groupId: str,
  hostname: str,
  port: num,
  typeName: str,
  replicaSetName: str,
  links,
});
export type Host = z.infer<typeof HostSchema>;

export const DiskPartitionSchema = z.looseObject({ partitionName: z.string(), links });
export type DiskPartition = z.infer<typeof DiskPartitionSchema>;

const DiffSchema = z.looseObject({
  id: z.string().nullish(),
  name: z.string().nullish(),
  params: z
    .array(
      z.looseObject({
        display: z.string().nullish(),
        new: z.string().nullish(),
        old: z.string().nullish(),
        param: str,
      }),
    )
    .nullish(),
  status: str,
  type: str,
  roles: z.array(z.looseObject({ db: str, role: str })).nullish(),
  priviileges: z.array(z.unknown()).nullish(),
});

// Events carry `port` or `Port`.
export const ApiEventSchema = z.looseObject({
  id: z.string(),
  created: str,
  eventTypeName: str,
  groupId: str,
  orgId: str,
  alertId: str,
  alertConfigId: str,
  apiKeyId: str,
  publicKey: str,
  userId: str,
  username: str,
  isGlobalAdmin: bool,
  remoteAddress: str,
  hostId: str,
  hostname: str,
  port: z.union([z.number(), z.string()]).optional(),
  Port: z.union([z.number(), z.string()]).optional(),
  currentValue: CurrentValueSchema.optional(),
  metricName: str,
  diffs: z.array(DiffSchema).nullish(),
  raw: z.unknown().optional(),
  links,
});
export type ApiEvent = z.infer<typeof ApiEventSchema>;

export const StringListSchema = z.array(z.string());

/** The paged list shape around any item schema. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.looseObject({
    results: z.array(item),
    totalCount: z.number(),
    links: z.array(LinkSchema).optional(),
  });
}

/**
 * `envelope=true` wraps single results as {status, content}. The client never asks for it, but a
 * proxy or server default might: unwrap exactly that shape (a list's added `status` is left alone).
 */
export function unwrapEnvelope(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const keys = Object.keys(body);
  const o = body as Record<string, unknown>;
  if (keys.length === 2 && typeof o.status === 'number' && 'content' in o) return o.content;
  return body;
}

type Check = (value: unknown) => boolean;
type Def = { type: string; checks?: unknown[] } & Record<string, unknown>;

/**
 * A predicate that answers like `schema.safeParse(value).success`, built once from the schema, for the
 * shapes the response schemas above use (loose objects, arrays, unions, optional, nullable, strings, numbers,
 * booleans, unknown). It walks the value without building anything: zod's parse copies every object of an
 * answer (0.002 ms per event, 1 ms per page of 500), and this check runs on every API call. undefined when
 * the schema uses anything else (refinements, enums, stripping or strict objects): then zod checks it.
 */
export function compileCheck(schema: z.ZodType): Check | undefined {
  const def = schema._zod.def as unknown as Def;
  if (def.checks?.length) return undefined;
  const inner = () => compileCheck(def.innerType as z.ZodType);
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'number':
      return (v) => typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'unknown':
      return () => true;
    case 'optional': {
      const c = inner();
      return c && ((v) => v === undefined || c(v));
    }
    case 'nullable': {
      const c = inner();
      return c && ((v) => v === null || c(v));
    }
    case 'array': {
      const c = compileCheck(def.element as z.ZodType);
      return (
        c &&
        ((v) => {
          if (!Array.isArray(v)) return false;
          for (let i = 0; i < v.length; i++) if (!c(v[i])) return false;
          return true;
        })
      );
    }
    case 'union': {
      const cs = (def.options as z.ZodType[]).map(compileCheck);
      if (cs.some((c) => !c)) return undefined;
      return (v) => cs.some((c) => c!(v));
    }
    case 'object': {
      // Loose objects only: a stripping object's parse drops fields, a strict one rejects them.
      if ((def.catchall as z.ZodType | undefined)?._zod.def.type !== 'unknown') return undefined;
      const entries = Object.entries(def.shape as Record<string, z.ZodType>);
      const keys = entries.map(([key]) => key);
      const checks = entries.map(([, s]) => compileCheck(s));
      const optional = entries.map(([, s]) => s._zod.optin === 'optional');
      if (checks.some((c) => !c)) return undefined;
      return (v) => {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
        const o = v as Record<string, unknown>;
        for (let i = 0; i < keys.length; i++) {
          const key = keys[i]!;
          if (!(key in o) ? !optional[i] : !checks[i]!(o[key])) return false;
        }
        return true;
      };
    }
    default:
      return undefined;
  }
}

// Compiled once per schema; null = not compilable, zod checks it.
const compiled = new WeakMap<z.ZodType, Check | null>();

/**
 * Validates without failing: on a mismatch, warn once per schema name and return the data as sent. None of
 * the schemas transforms, so a matching answer is returned as sent too.
 */
export function createShapeChecker(logger: Logger) {
  const warned = new Set<string>();
  // A shared (frozen) answer checked once per schema: a kept read is not walked again on every use.
  const passed = new WeakMap<object, WeakSet<z.ZodType>>();
  return function check<T>(schema: z.ZodType<T>, name: string, data: unknown): T {
    const shared = typeof data === 'object' && data !== null && Object.isFrozen(data) ? data : undefined;
    if (shared && passed.get(shared)?.has(schema)) return data as T;
    let fast = compiled.get(schema);
    if (fast === undefined) {
      fast = compileCheck(schema) ?? null;
      compiled.set(schema, fast);
    }
    if (fast?.(data)) {
      if (shared) {
        const s = passed.get(shared) ?? new WeakSet();
        s.add(schema);
        passed.set(shared, s);
      }
      return data as T;
    }
    const r = schema.safeParse(data);
    if (r.success) return r.data;
    if (!warned.has(name)) {
      warned.add(name);
      // Paths and expectations only: values may hold secrets.
      const issues = r.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.code}`);
      logger.warn('API response has an unexpected shape; using it as sent', { schema: name, issues });
    }
    return data as T;
  };
}
