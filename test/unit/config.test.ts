import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfigError,
  firstSettingsMarkdown,
  loadConfig,
  settingNames,
  settingsHelp,
  settingsMarkdown,
  settingsTable,
  withGenerated,
} from '../../src/config/index.js';

describe('configuration', () => {
  it('has sensible defaults', () => {
    const c = loadConfig([], {});
    expect(c.confirm).toBe('destructive');
    expect(c.confirmVia).toEqual(['elicitation', 'approval-page', 'token']);
    expect(c.readOnly).toBe(false);
    expect(c.maxOutputChars).toBe(12_000);
    expect(c.baseUrl).toBeUndefined();
  });
  it('takes flags over environment over file', () => {
    const file = join(tmpdir(), `dbops-config-${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ maxRetries: 1, timeoutMs: 1000, logLevel: 'debug' }));
    const c = loadConfig(['--max-retries', '5', '--read-only'], {
      DBOPS_CONFIG: file,
      DBOPS_MAX_RETRIES: '4',
      DBOPS_TIMEOUT_MS: '2000',
    });
    expect(c.maxRetries).toBe(5);
    expect(c.timeoutMs).toBe(2000);
    expect(c.logLevel).toBe('debug');
    expect(c.readOnly).toBe(true);
    expect(loadConfig(['--no-read-only'], { DBOPS_READ_ONLY: 'true' }).readOnly).toBe(false);
  });
  it('names the bad setting', () => {
    expect(() => loadConfig([], { DBOPS_CONFIRM: 'always' })).toThrow(/DBOPS_CONFIRM \/ --confirm/);
    expect(() => loadConfig(['--bogus'], {})).toThrow(ConfigError);
    expect(() => loadConfig([], { DBOPS_CONFIRM_VIA: 'email' })).toThrow(/DBOPS_CONFIRM_VIA/);
    expect(() => loadConfig(['--port'], {})).toThrow(/needs a value/);
  });
  it('takes every boolean setting as a bare flag', () => {
    const defaults = loadConfig([], {});
    const flags = Object.entries(defaults)
      .filter(([, v]) => typeof v === 'boolean')
      .map(([k]) => settingNames[k as keyof typeof settingNames].flag);
    expect(flags.length).toBeGreaterThan(0);
    const c = loadConfig(flags, {}) as Record<string, unknown>;
    for (const [k, v] of Object.entries(defaults)) if (typeof v === 'boolean') expect(c[k], k).toBe(true);
  });
  it('maps names to DBOPS_* and --kebab-case', () => {
    expect(settingNames.baseUrl).toEqual({ env: 'DBOPS_BASE_URL', flag: '--base-url' });
    expect(settingNames.approvalTtlMs.env).toBe('DBOPS_APPROVAL_TTL_MS');
  });
});

describe('README and docs/settings.md', () => {
  it('documents every setting once, in src/config/; the table and the first five are the ones generated from it', () => {
    const rows = settingsTable.flatMap((r) => r.keys);
    expect([...rows].sort()).toEqual(Object.keys(settingNames).sort());
    expect(new Set(rows).size).toBe(rows.length);
    const read = (name: string) => readFileSync(new URL(`../../${name}`, import.meta.url), 'utf8');
    // Stale when a setting or its words changed in src/config/: npm run docs:settings rewrites them.
    const [readme, settings] = [read('README.md'), read('docs/settings.md')];
    expect(withGenerated(settings, 'table', settingsMarkdown())).toBe(settings);
    expect(withGenerated(readme, 'first', firstSettingsMarkdown())).toBe(readme);
    // The table's links are written from docs/; the README's list reaches the same pages from the root.
    expect(settingsMarkdown()).toContain('([identity.md](identity.md))');
    expect(firstSettingsMarkdown()).not.toMatch(/\]\((?!docs\/|https?:)/);
    expect(settingsHelp()).toContain('DBOPS_READY_KEEP_MS (--ready-keep-ms)');
  });
  it('names a variable on every row of the table (the proxies row too)', () => {
    expect(settingsMarkdown()).not.toMatch(/^\|\s*\|/m);
    expect(settingsMarkdown()).toContain('| `HTTPS_PROXY`, `HTTP_PROXY`, `NO_PROXY` |');
  });
  it('gives every setting but a boolean an example the schema takes, shown in the table and in --help', () => {
    const defaults = loadConfig([], {}) as Record<string, unknown>;
    for (const row of settingsTable) {
      const examples: Record<string, string | undefined> = row.example ?? {};
      expect(row.keys).toEqual(expect.arrayContaining(Object.keys(examples)));
      for (const key of row.keys) {
        const example = examples[key];
        if (typeof defaults[key] === 'boolean') expect(example, key).toBeUndefined();
        else {
          expect(example, key).toMatch(/\S/);
          expect(() => loadConfig([], { [settingNames[key].env]: example }), key).not.toThrow();
        }
      }
    }
    expect(settingsMarkdown()).toMatch(/^\| variable \| meaning \| default \| example \|$/m);
    expect(settingsMarkdown()).toContain(
      '| `DBOPS_APPROVAL_OPEN`, `DBOPS_APPROVAL_WAIT_MS` | open the page in the desktop browser and wait for the decision | false, 120000 | \u2014, `300000` |',
    );
    expect(settingsHelp()).toContain('      example: DBOPS_BASE_URL=https://ops.example.com\n');
    expect(settingsHelp()).toContain(
      '      example: DBOPS_TRANSPORT=http DBOPS_HOST=0.0.0.0 DBOPS_PORT=8080\n',
    );
  });
});

describe('documented defaults', () => {
  it('come from the schema: a row writes its default in words only where the schema has no plain one', async () => {
    const { settingsTable } = await import('../../src/config/settings.js');
    const { defaultText, plainDefault } = await import('../../src/config/docs.js');
    for (const r of settingsTable) {
      const plain = r.keys.length > 0 && r.keys.every((k) => plainDefault(k) !== undefined);
      // Written twice, a default drifts: a plain one is the schema's alone.
      expect(
        plain && r.byDefault !== undefined,
        `${r.keys.join(', ')}: "${r.byDefault}" restates the schema`,
      ).toBe(false);
      expect(defaultText(r), r.keys.join(', ')).not.toBe('');
    }
    const timeout = settingsTable.find((r) => r.keys.includes('timeoutMs'))!;
    expect(defaultText(timeout)).toBe('30000, 3');
  });
});
