// Request validation shared by the routes: body attributes, ids, timestamps and query parameters, each
// failure answered with the error code a real server uses.

import { SimError } from '../types.js';

type Kind = 'string' | 'boolean' | 'number' | 'integer' | 'date' | 'strings' | 'objects';

interface KindTypes {
  string: string;
  boolean: boolean;
  number: number;
  integer: number;
  /** ISO 8601 timestamp, parsed. */
  date: Date;
  strings: string[];
  objects: Record<string, unknown>[];
}

export interface FieldSpec {
  kind: Kind;
  required?: boolean;
  /** Allowed values of a string (or of each element of a string array). */
  values?: readonly string[];
  /** Length bounds of a string. */
  min?: number;
  max?: number;
}

export type BodySpec = Record<string, FieldSpec>;

type Required<S extends BodySpec> = { [K in keyof S as S[K]['required'] extends true ? K : never]: S[K] };
type Optional<S extends BodySpec> = { [K in keyof S as S[K]['required'] extends true ? never : K]: S[K] };
type Parsed<S extends BodySpec> = { [K in keyof Required<S>]: KindTypes[S[K]['kind']] } & {
  [K in keyof Optional<S>]?: KindTypes[S[K]['kind']];
};

export const badRequest = (errorCode: string, detail: string, parameters?: unknown[]): SimError =>
  new SimError(400, errorCode, detail, parameters);

export function invalidAttribute(name: string): SimError {
  return badRequest('INVALID_ATTRIBUTE', `Invalid attribute ${name} specified.`, [name]);
}

export function missingAttribute(name: string): SimError {
  return badRequest('MISSING_ATTRIBUTE', `The required attribute ${name} was not specified.`, [name]);
}

export function invalidJsonAttribute(name: string, why: string): SimError {
  return badRequest('INVALID_JSON_ATTRIBUTE', `Invalid JSON attribute ${name}: ${why}.`, [name]);
}

export function invalidEnum(name: string, value: unknown, allowed: readonly string[]): SimError {
  return badRequest(
    'INVALID_ENUM_VALUE',
    `An invalid enumeration value ${String(value)} was specified for ${name}; allowed: ${allowed.join(', ')}.`,
    [String(value), name],
  );
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The request body as an object; a missing body or a JSON array or scalar is a 400. */
function objectBody(body: unknown): Record<string, unknown> {
  if (!isPlainObject(body)) {
    throw badRequest('INVALID_JSON', 'The request body must be a JSON object.');
  }
  return body;
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Parses an ISO 8601 date or date-time; undefined when it is not one. */
export function parseTimestamp(value: string): Date | undefined {
  if (!ISO_TIMESTAMP.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

function readField(name: string, value: unknown, spec: FieldSpec): unknown {
  const wrongType = (expected: string): SimError => invalidJsonAttribute(name, `expected ${expected}`);
  switch (spec.kind) {
    case 'string': {
      if (typeof value !== 'string') throw wrongType('a string');
      if (spec.values !== undefined && !spec.values.includes(value))
        throw invalidEnum(name, value, spec.values);
      if (spec.min !== undefined && value.length < spec.min) {
        throw invalidJsonAttribute(name, `must be at least ${spec.min} characters`);
      }
      if (spec.max !== undefined && value.length > spec.max) {
        throw invalidJsonAttribute(name, `must be at most ${spec.max} characters`);
      }
      return value;
    }
    case 'boolean':
      if (typeof value !== 'boolean') throw wrongType('a boolean');
      return value;
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw wrongType('a number');
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw wrongType('an integer');
      return value;
    case 'date': {
      const date = typeof value === 'string' ? parseTimestamp(value) : undefined;
      if (date === undefined) throw wrongType('an ISO 8601 timestamp');
      return date;
    }
    case 'strings': {
      if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
        throw wrongType('an array of strings');
      const values = spec.values;
      if (values !== undefined) {
        const bad = value.find((v) => !values.includes(v));
        if (bad !== undefined) throw invalidEnum(name, bad, values);
      }
      return value;
    }
    case 'objects':
      if (!Array.isArray(value) || !value.every(isPlainObject)) throw wrongType('an array of objects');
      return value;
  }
}

/**
 * Checks a request body against a spec: unknown attributes, missing required ones, types, enums and
 * lengths. A JSON null counts as absent, as it does on the real servers. `tolerate` names attributes that
 * are accepted and ignored.
 */
export function parseBody<S extends BodySpec>(
  body: unknown,
  spec: S,
  tolerate: readonly string[] = [],
): Parsed<S> {
  const input = objectBody(body);
  for (const name of Object.keys(input)) {
    if (!(name in spec) && !tolerate.includes(name)) throw invalidAttribute(name);
  }
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(spec)) {
    const value = input[name];
    if (value === undefined || value === null) {
      if (field.required === true) throw missingAttribute(name);
      continue;
    }
    out[name] = readField(name, value, field);
  }
  return out as Parsed<S>;
}

// ---------------------------------------------------------------------------------------------------------
// Identifiers

const OBJECT_ID = /^[0-9a-f]{24}$/i;

export function isObjectId(value: string): boolean {
  return OBJECT_ID.test(value);
}

/**
 * Looks up a record by a 24-hex id: a malformed id is 404 `INVALID_<X>_ID`, an unknown one 404 `<X>_NOT_FOUND`.
 */
export function findById<T>(
  id: string,
  lookup: (id: string) => T | undefined,
  codes: { invalid: string; notFound: string; what: string },
): T {
  if (!isObjectId(id))
    throw new SimError(404, codes.invalid, `An invalid ${codes.what} ID ${id} was specified.`, [id]);
  const found = lookup(id);
  if (found === undefined) {
    throw new SimError(404, codes.notFound, `No ${codes.what} with ID ${id} exists.`, [id]);
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------------
// Query parameters

export function invalidQuery(name: string, value: string, why: string): SimError {
  return badRequest('INVALID_QUERY_PARAMETER', `Invalid query parameter ${name}=${value}: ${why}.`, [
    name,
    value,
  ]);
}

export function queryBoolean(query: URLSearchParams, name: string): boolean {
  const value = query.get(name);
  if (value === null) return false;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw invalidQuery(name, value, 'expected true or false');
}

export function queryDate(query: URLSearchParams, name: string): Date | undefined {
  const value = query.get(name);
  if (value === null) return undefined;
  const date = parseTimestamp(value);
  if (date === undefined) throw invalidQuery(name, value, 'expected an ISO 8601 timestamp');
  return date;
}

/** A repeatable parameter whose values may also be comma-separated. */
export function queryList(query: URLSearchParams, name: string): string[] {
  return query
    .getAll(name)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
