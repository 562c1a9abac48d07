// Types of the incident library (plain JavaScript, so the bench runs it after a build without TypeScript).
import type { StoreData } from '../../src/simulator/store.js';

export interface Finding {
  /** Text the answer must contain: an id, a name, or a phrase that carries the finding. */
  id: string;
  why: string;
  /** An alert id: the finding must be in that alert's cause block. */
  near?: string;
  /** An alert id: the finding must not be in that alert's cause block. */
  notNear?: string;
}

export interface Expected {
  projectId: string;
  expect: Finding[];
  /** Text the answer must not contain. */
  absent?: Finding[];
}

export interface Scenario {
  name: string;
  title: string;
  seed(data: StoreData, now: Date): Expected;
}

export const scenarios: Scenario[];
export function missing(text: string, expected: Expected): Finding[];
