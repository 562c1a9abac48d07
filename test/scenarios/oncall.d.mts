// Types of the on-call questions (plain JavaScript, so the bench runs them after a build without TypeScript).
import type { StoreData } from '../../src/simulator/store.js';

export interface Question {
  name: string;
  question: string;
  /** The calls a model makes: tool name and arguments. */
  calls?: Array<[string, Record<string, unknown>]>;
  /** What the answers lack (empty when they hold every fact). */
  check?(texts: string[], data: StoreData, now: Date): string[];
  /** A change: ask, then act (two calls allowed). */
  change?: boolean;
  /** Why the question is not asked yet (owned by another half of the issue). */
  todo?: string;
}

export const questions: Question[];
export function prepare(data: StoreData, now: Date): void;
export function argsFor(args: Record<string, unknown>, data: StoreData): Record<string, unknown>;
export function section(text: string, start: RegExp): string;
export function unknownNextTools(text: string, offered: Set<string>): string[];
export function median(xs: number[]): number;
