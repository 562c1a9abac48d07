// What every builder of the demo dataset shares: the seeded PRNG, the clock of creation, and lookups by
// name. Builders draw from one PRNG in a fixed order, so the order they run in (index.ts) is part of the
// dataset: moving a draw changes every id after it.

import type { ProjectRec, StoreData, UserRec } from '../records.js';
import { timestamp } from '../values.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** mulberry32: small, fast and good enough for demo data. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((sum, [, w]) => sum + w, 0);
    let x = this.next() * total;
    for (const [item, w] of items) {
      x -= w;
      if (x < 0) return item;
    }
    return items[items.length - 1]![0];
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  chars(n: number, alphabet: string): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
  hex(n: number): string {
    return this.chars(n, '0123456789abcdef');
  }
  id(): string {
    return this.hex(24);
  }
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
  }
  publicKey(): string {
    return this.chars(8, 'abcdefghijklmnopqrstuvwxyz');
  }
}

/** The dataset being built, its PRNG and its clock. */
export class Build {
  readonly r: Rng;
  constructor(
    seed: number,
    readonly now: Date,
    readonly data: StoreData,
  ) {
    this.r = new Rng(seed);
  }
  /** The timestamp offsetMs from now. */
  at(offsetMs: number): string {
    return timestamp(new Date(this.now.getTime() + offsetMs));
  }
  /** A timestamp between min and max milliseconds ago. */
  ago(min: number, max: number): string {
    return this.at(-(min + this.r.next() * (max - min)));
  }
  project(name: string): ProjectRec {
    const p = this.data.projects.find((x) => x.name === name);
    if (p === undefined) throw new Error(`demo dataset: no project ${name}`);
    return p;
  }
  user(username: string): UserRec {
    const u = this.data.users.find((x) => x.username === username);
    if (u === undefined) throw new Error(`demo dataset: no user ${username}`);
    return u;
  }
}
