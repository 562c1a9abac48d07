// What the simulator reads of a request besides its path: the common query parameters (paging, pretty,
// envelope) and the JSON body, within a size limit.

import type { IncomingMessage } from 'node:http';
import { SimError } from './types.js';

export interface QueryFlags {
  pageNum: number;
  itemsPerPage: number;
  pretty: boolean;
  envelope: boolean;
}

export function parseQuery(query: URLSearchParams): QueryFlags {
  const bad = (name: string, value: string, rule: string): never => {
    throw new SimError(
      400,
      'INVALID_QUERY_PARAMETER',
      `Invalid query parameter ${name} specified: ${JSON.stringify(value)} (${rule}).`,
      [name, value],
    );
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const value = query.get(name);
    if (value === null) return fallback;
    const n = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
    if (!(n >= min && n <= max)) bad(name, value, `an integer from ${min} to ${max}`);
    return n;
  };
  const bool = (name: string): boolean => {
    const value = query.get(name);
    if (value === null) return false;
    const v = value.toLowerCase();
    if (v !== 'true' && v !== 'false') bad(name, value, 'true or false');
    return v === 'true';
  };
  return {
    pageNum: int('pageNum', 1, 1, 999_999_999),
    itemsPerPage: int('itemsPerPage', 100, 1, 500),
    pretty: bool('pretty'),
    envelope: bool('envelope'),
  };
}

/** The body as text; undefined when it is (or says it is) longer than `max` bytes. */
function readBody(req: IncomingMessage, max: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const tooLarge = () => {
      req.resume(); // discard the rest; the answer closes the connection
      resolve(undefined);
    };
    if (Number(req.headers['content-length'] ?? 0) > max) return tooLarge();
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) return void chunks.push(chunk);
      req.off('data', onData);
      tooLarge();
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** The parsed JSON body (undefined when empty), or 'too large'; malformed JSON throws 400 INVALID_JSON. */
export async function readJsonBody(
  req: IncomingMessage,
  max: number,
): Promise<{ body: unknown } | 'too large'> {
  const text = await readBody(req, max);
  if (text === undefined) return 'too large';
  if (text.trim() === '') return { body: undefined };
  try {
    return { body: JSON.parse(text) };
  } catch {
    throw new SimError(400, 'INVALID_JSON', 'Received JSON is malformed.');
  }
}
