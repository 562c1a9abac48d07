// The README as a newcomer meets it: short, every JSON snippet parses (a client refuses a config that does
// not), every link leads somewhere, and the commands of its first screen work as written from a fresh clone,
// followed by the demo commands it shows. The clone is `git clone` of this repository (its committed HEAD)
// instead of GitHub's; its node_modules are this repository's, hard-linked (copied across file systems)
// where `npm install` would otherwise download them, and npm runs offline. `npm install` still builds dist/
// in the clone (its prepare script), which is most of this test's time.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (name: string) => readFileSync(join(root, name), 'utf8');
const readme = read('README.md');
/** What a terminal shows of the README before one scrolls. */
const FIRST_SCREEN_LINES = 40;
const CLONE_URL = 'https://github.com/dbops-mcp/dbops-mcp';

/** The fenced blocks of a markdown text: their language, body and the line they open on (1-based). */
function fenced(md: string): Array<{ lang: string; body: string; line: number }> {
  return [...md.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1] ?? '',
    body: m[2] ?? '',
    line: md.slice(0, m.index).split('\n').length,
  }));
}

/** Inline code that a reader would paste as JSON: spans opening with `{"` or `[{"`. */
const inlineJson = (md: string) =>
  [...md.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/`(\{"[^`]*|\[\{"[^`]*)`/g)].map((m) => m[1] ?? '');

const docs = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('the README', () => {
  it('is under 30 KB, and leaves tool counts and catalog sizes to docs/tools.md', () => {
    expect(Buffer.byteLength(readme)).toBeLessThan(30_000);
    expect(readme).not.toMatch(/\b\d+ tools\b|\b\d[\d.,]* ?KB\b/);
  });

  it('has only JSON snippets that parse, in the README and in docs/', () => {
    let count = 0;
    for (const name of docs) {
      const md = read(name);
      const snippets = [
        ...fenced(md)
          .filter((b) => b.lang === 'json')
          .map((b) => ({ where: `${name}:${b.line}`, text: b.body })),
        ...inlineJson(md).map((text) => ({ where: `${name} (inline)`, text })),
      ];
      for (const { where, text } of snippets) {
        count++;
        expect(() => JSON.parse(text), `${where}: ${text.slice(0, 80)}`).not.toThrow();
      }
    }
    // The README's client snippets are among them (a count that cannot fall to zero unnoticed).
    expect(fenced(readme).filter((b) => b.lang === 'json').length).toBeGreaterThanOrEqual(3);
    expect(count).toBeGreaterThan(5);
  });

  it('links only to files that exist', () => {
    for (const name of docs) {
      const md = read(name).replace(/^```[\s\S]*?^```$/gm, '');
      for (const [, target] of md.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^[a-z]+:|^#/.test(target)) continue;
        const file = join(root, dirname(name), target.replace(/#.*$/, ''));
        expect(existsSync(file), `${name} links to ${target}`).toBe(true);
      }
    }
  });

  it('runs as written from a fresh clone: its first screen, then the demo it shows', () => {
    const firstScreen = readme.split('\n').slice(0, FIRST_SCREEN_LINES).join('\n');
    const setup = fenced(firstScreen).filter((b) => b.lang === 'sh');
    expect(setup.length, 'a sh block of set-up commands in the first screen').toBeGreaterThan(0);
    const lines = setup.flatMap((b) => b.body.split('\n')).filter((l) => l.trim() !== '');
    expect(lines[0]).toContain(`git clone ${CLONE_URL}`);
    expect(lines).toContain(lines.find((l) => l.startsWith('npm install')));

    const dir = mkdtempSync(join(tmpdir(), 'dbops-readme-'));
    const modules = join(root, 'node_modules');
    const script = [
      'set -euo pipefail',
      ...lines.flatMap((l) =>
        l.startsWith('npm install')
          ? [
              // Instead of downloading: this repository's node_modules (its hidden lockfile copied, not linked,
              // since npm may rewrite it in place).
              `cp -al ${modules} node_modules 2>/dev/null || cp -a ${modules} node_modules`,
              `cp --remove-destination ${join(modules, '.package-lock.json')} node_modules/.package-lock.json`,
              l,
            ]
          : // GitHub would name the clone's directory after the repository.
            [l.replace(`git clone ${CLONE_URL}`, `git clone ${root} dbops-mcp`)],
      ),
      // The demo's commands as the README shows them (each after a `$ `), with their first line of output.
      ...fenced(readme)
        .filter((b) => b.lang === 'text')
        .flatMap((b) => [...b.body.matchAll(/^\$ (.+)$/gm)].map((m) => m[1])),
    ].join('\n');
    const home = join(dir, 'home');
    const run = spawnSync('bash', ['-c', script], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 480_000,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        XDG_STATE_HOME: join(home, 'state'),
        XDG_CONFIG_HOME: join(home, 'config'),
        npm_config_offline: 'true',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
      },
    });
    expect(run.error, 'the README commands did not end within 8 minutes').toBeUndefined();
    expect(run.status, `${script}\n--- stderr:\n${run.stderr.slice(-3000)}`).toBe(0);
    // Each command the README shows with its output answers with that output's first line.
    for (const b of fenced(readme).filter((x) => x.lang === 'text'))
      for (const [, firstLine] of b.body.matchAll(/^\$ .+\n(.+)$/gm))
        expect(run.stdout).toContain((firstLine ?? '').replace(/\(…\).*$/, '').slice(0, 40));
    expect(run.stdout).toContain('# Triage of project `payments-prod`');
    expect(
      execFileSync('git', ['-C', join(dir, 'dbops-mcp'), 'status', '--porcelain'], { encoding: 'utf8' }),
    ).toBe('');
  }, 600_000);
});
