// Types of the second on-call suite (plain JavaScript, so the bench and other suites run it after a build).
import type { StoreData } from '../../src/simulator/store.js';

export interface UnwrittenQuestion {
  name: string;
  question: string;
  /** The calls a model makes, in order: tool name and arguments (from the records where a model read them). */
  calls(data: StoreData): Array<[string, Record<string, unknown>]>;
  /** What the answers lack (empty when they hold every fact). */
  check(texts: string[], data: StoreData, now: Date): string[];
  /** A change: up to three calls (find, ask, act). */
  change?: boolean;
}

export interface Asked {
  name: string;
  calls: number;
  chars: number;
  texts: string[];
  lacks: string[];
}

export const questions: UnwrittenQuestion[];
export function pagesOf(config: unknown): string[];
export function ask(
  q: UnwrittenQuestion,
  call: (name: string, args: Record<string, unknown>) => Promise<{ text: string; isError: boolean }>,
  data: StoreData,
  now?: Date,
): Promise<Asked>;
