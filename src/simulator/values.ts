// Values the store, the demo dataset and the routes share: identifiers, timestamps, password hashes and
// access-list matching (IPv4 CIDR math; IPv6 by exact address).

import { randomBytes, randomUUID, scryptSync } from 'node:crypto';
import type { AccessListEntryRec } from './records.js';

/** 24 lowercase hex characters, like a 12-byte object id. */
export function newObjectId(): string {
  return randomBytes(12).toString('hex');
}

/** 8 lowercase letters, the public half of a key in the field. */
export function newPublicKey(): string {
  const bytes = randomBytes(8);
  return Array.from(bytes, (b) => String.fromCharCode(97 + (b % 26))).join('');
}

export function newPrivateKey(): string {
  return randomUUID();
}

/** ISO 8601 in UTC without milliseconds, as the API prints timestamps. */
export function timestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

export function hashPassword(password: string, salt: string = randomBytes(16).toString('hex')): string {
  // A low work factor: this hash protects demo data, and the dataset hashes several passwords per start.
  const hash = scryptSync(password, salt, 32, { N: 1024 }).toString('hex');
  return `scrypt$${salt}$${hash}`;
}

// ---------------------------------------------------------------------------------------------------------
// Access-list matching (IPv4 CIDR math; IPv6 by exact address)

/** Strips the IPv4-mapped IPv6 prefix that Node reports on dual-stack sockets. */
export function normalizeAddress(address: string): string {
  const lower = address.trim().toLowerCase();
  return lower.startsWith('::ffff:') && lower.includes('.') ? lower.slice(7) : lower;
}

function parseIpv4(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const n = Number(part);
    if (n > 255) return undefined;
    value = value * 256 + n;
  }
  return value;
}

/** Whether `address` lies in `cidr` (IPv4 a.b.c.d/n, or an exact IPv6 /128 or bare address). */
export function cidrContains(cidr: string, address: string): boolean {
  const [base = '', bitsText] = cidr.split('/');
  const ip = parseIpv4(address);
  const net = parseIpv4(base);
  if (ip === undefined || net === undefined) {
    return (bitsText === undefined || bitsText === '128') && normalizeAddress(base) === address;
  }
  const bits = bitsText === undefined ? 32 : Number(bitsText);
  if (!Number.isInteger(bits) || bits < 0 || bits > 32) return false;
  if (bits === 0) return true;
  const size = 2 ** (32 - bits);
  return Math.floor(ip / size) === Math.floor(net / size);
}

export function entryMatches(entry: AccessListEntryRec, address: string): boolean {
  if (entry.ipAddress !== undefined && normalizeAddress(entry.ipAddress) === address) return true;
  return entry.cidrBlock !== undefined && cidrContains(entry.cidrBlock, address);
}

/** Builds an access-list entry from an address or a CIDR block; undefined when it is neither. */
export function accessListEntry(value: string, now: Date): AccessListEntryRec | undefined {
  const [base = '', bits] = value.split('/');
  const v4 = parseIpv4(base) !== undefined;
  const v6 = !v4 && /^[0-9a-f:]+$/i.test(base) && base.includes(':');
  if (!v4 && !v6) return undefined;
  const max = v4 ? 32 : 128;
  if (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max)) return undefined;
  const created = timestamp(now);
  if (bits === undefined || Number(bits) === max) {
    return { ipAddress: base.toLowerCase(), cidrBlock: `${base.toLowerCase()}/${max}`, created, count: 0 };
  }
  return { cidrBlock: value.toLowerCase(), created, count: 0 };
}
