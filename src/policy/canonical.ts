import { createHash } from 'node:crypto';
import { proofArguments } from './channels/index.js';

/** The arguments a consent is bound to: sorted keys, no undefined, without the channels' proof arguments. */
export function canonicalArgs(args: Record<string, unknown>): string {
  const proofs = new Set(proofArguments().map((a) => a.name));
  return JSON.stringify(sortKeys(Object.fromEntries(Object.entries(args).filter(([k]) => !proofs.has(k)))));
}

export function argsHash(tool: string, args: Record<string, unknown>): string {
  return createHash('sha256')
    .update(`${tool}\n${canonicalArgs(args)}`)
    .digest('base64url');
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value as object)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
  );
}
