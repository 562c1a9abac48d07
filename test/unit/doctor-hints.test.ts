// The doctor's hints name settings through src/config/ (settingHint, settingNames), never by a DBOPS_* name
// written out again: a renamed setting then renames every hint, and a hint cannot name a setting that is gone.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingHint, settingNames } from '../../src/config/index.js';

const dir = new URL('../../src/doctor/', import.meta.url).pathname;
const sources = readdirSync(dir).filter((f) => f.endsWith('.ts'));

/** The code without its comments (a comment may name a setting; what the doctor prints may not). */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

describe("the doctor's hints", () => {
  it('spell no DBOPS_* name out: each comes from the settings table', () => {
    expect(sources.length).toBeGreaterThan(1);
    const literals = sources.flatMap((f) =>
      [...code(readFileSync(join(dir, f), 'utf8')).matchAll(/DBOPS_[A-Z_]+/g)].map((m) => `${f}: ${m[0]}`),
    );
    expect(literals).toEqual([]);
  });
  it('take the name, and a value where one is given, from the table', () => {
    expect(settingHint('caFile')).toBe(settingNames.caFile.env);
    expect(settingHint('readOnly', true)).toBe('DBOPS_READ_ONLY=true');
    expect(settingHint('port', 3001)).toBe('DBOPS_PORT=3001');
  });
});
