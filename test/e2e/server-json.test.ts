// server.json (the MCP registry's entry for this package) validates against the registry's own schema, the one
// its $schema names, and agrees with package.json. The schema is a byte-for-byte copy, pinned by its sha256:
// test/fixtures/registry/server.schema.json is the MCP registry's docs/reference/server-json/server.schema.json
// (github.com/modelcontextprotocol/registry) as published at
// https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json. Moving to a newer schema is a
// deliberate change: replace the file, the pin and server.json's $schema together.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (p: string) => readFileSync(new URL(p, root));
const SCHEMA_SHA256 = '3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0';

const schemaBytes = read('test/fixtures/registry/server.schema.json');
const schema = JSON.parse(schemaBytes.toString('utf8')) as { $id: string };
const serverJson = JSON.parse(read('server.json').toString('utf8')) as Record<string, unknown>;
const pkg = JSON.parse(read('package.json').toString('utf8')) as {
  name: string;
  version: string;
  mcpName: string;
};

// ajv-formats is CommonJS: its default export is the function (or holds it, depending on the loader).
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (a: Ajv) => Ajv;
function validator() {
  // strict: false — the schema uses OpenAPI's `example`, which is no JSON Schema keyword.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile(schema);
}
const problems = (doc: unknown) => {
  const validate = validator();
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}`);
};

describe('server.json', () => {
  it('the schema fixture is the registry schema as published (sha256 pinned)', () => {
    expect(createHash('sha256').update(schemaBytes).digest('hex')).toBe(SCHEMA_SHA256);
    expect(schema.$id).toBe('https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json');
  });

  it('names that schema and validates against it', () => {
    expect(serverJson.$schema).toBe(schema.$id);
    expect(problems(serverJson)).toEqual([]);
  });

  it('the validator refuses what the registry refuses (so the test above can fail)', () => {
    expect(problems({ ...serverJson, description: 'x'.repeat(101) })).toContain(
      '/description must NOT have more than 100 characters',
    );
    expect(problems({ ...serverJson, name: 'dbops-mcp' }).join('\n')).toContain('/name must match pattern');
    const packages = serverJson.packages as Array<Record<string, unknown>>;
    expect(
      problems({ ...serverJson, packages: [{ ...packages[0], version: 'latest' }] }).length,
    ).toBeGreaterThan(0);
  });

  it('agrees with package.json: name, version and the npm package', () => {
    expect(serverJson.name).toBe(pkg.mcpName);
    expect(serverJson.version).toBe(pkg.version);
    const npm = (serverJson.packages as Array<Record<string, unknown>>).find((p) => p.registryType === 'npm');
    expect(npm?.identifier).toBe(pkg.name);
    expect(npm?.version).toBe(pkg.version);
  });
});
