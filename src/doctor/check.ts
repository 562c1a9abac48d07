// One step of the doctor: what it found, and what to do when it failed.

export interface Check {
  step: string;
  ok: boolean;
  /** What was found. */
  detail: string;
  /** What to do, when the step failed. */
  fix?: string;
}

export const pass = (step: string, detail: string): Check => ({ step, ok: true, detail });
export const fail = (step: string, detail: string, fix: string): Check => ({ step, ok: false, detail, fix });
