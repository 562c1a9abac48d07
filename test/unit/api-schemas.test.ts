// The response check on the hot path: a predicate compiled once per schema must accept exactly what zod
// accepts, and a matching answer is handed on as sent (no copy), a surprising one too (with one warning).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as schemas from '../../src/api/schemas.js';
import { compileCheck, createShapeChecker, pageOf } from '../../src/api/schemas.js';
import { createLogger } from '../../src/log.js';

/** Every response schema the client uses, and its page shape. */
const all: Array<[string, z.ZodType]> = (Object.entries(schemas) as Array<[string, unknown]>)
  .filter((e): e is [string, z.ZodType] => e[1] instanceof z.ZodType)
  .flatMap(
    ([name, s]): Array<[string, z.ZodType]> => [
      [name, s],
      [`Page<${name}>`, pageOf(s)],
    ],
  );

/** Values shaped like the schema, now and then with a field missing, null, or of another type. */
function arb(schema: z.ZodType, depth = 0): fc.Arbitrary<unknown> {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  const junk = fc.oneof(
    fc.constant(null),
    fc.constant(undefined),
    fc.string({ maxLength: 3 }),
    fc.double(),
    fc.boolean(),
    fc.constant([]),
    fc.constant({}),
  );
  const valid = (): fc.Arbitrary<unknown> => {
    switch (def.type) {
      case 'string':
        return fc.string({ maxLength: 5 });
      case 'number':
        return fc.oneof(fc.integer(), fc.double());
      case 'boolean':
        return fc.boolean();
      case 'unknown':
        return fc.jsonValue({ maxDepth: 1 });
      case 'optional':
      case 'nullable':
        return fc.oneof(
          fc.constant(def.type === 'optional' ? undefined : null),
          arb(def.innerType as z.ZodType, depth),
        );
      case 'array':
        return depth > 3
          ? fc.constant([])
          : fc.array(arb(def.element as z.ZodType, depth + 1), { maxLength: 3 });
      case 'union':
        return fc.oneof(...(def.options as z.ZodType[]).map((o) => arb(o, depth)));
      case 'object': {
        const shape = def.shape as Record<string, z.ZodType>;
        if (depth > 3) return fc.constant({});
        const fields = Object.fromEntries(
          Object.entries(shape).map(([k, s]) => [
            k,
            fc.option(arb(s, depth + 1), { nil: '__absent__' as const }),
          ]),
        );
        return fc
          .tuple(
            fc.record(fields),
            fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
          )
          .map(([r, extra]) => {
            const o: Record<string, unknown> = { ...extra };
            for (const [k, v] of Object.entries(r)) if (v !== '__absent__') o[k] = v;
            return o;
          });
      }
      default:
        return fc.anything();
    }
  };
  return fc.oneof({ weight: 9, arbitrary: valid() }, { weight: 1, arbitrary: junk });
}

describe('compiled response checks', () => {
  it('compile every response schema of the client (none falls back to zod)', () => {
    for (const [name, s] of all) expect(compileCheck(s), name).toBeTypeOf('function');
  });

  it('accept exactly what zod accepts, for every response schema', () => {
    for (const [name, s] of all) {
      const check = compileCheck(s)!;
      fc.assert(
        fc.property(arb(s), (v) => {
          expect(check(v), `${name}: ${JSON.stringify(v)}`).toBe(s.safeParse(v).success);
        }),
        { numRuns: 100 },
      );
    }
  });

  it('agree with zod on the edge cases JSON cannot make but a caller can', () => {
    const S = z.looseObject({ id: z.string(), n: z.number().optional(), u: z.unknown() });
    const check = compileCheck(S)!;
    for (const v of [
      { id: 'a', u: 1 },
      { id: 'a' },
      { id: 'a', u: undefined },
      { id: 'a', u: 1, n: Number.NaN },
      { id: 'a', u: 1, n: Number.POSITIVE_INFINITY },
      { id: 'a', u: 1, n: undefined },
      [],
      null,
      Object.assign(Object.create({ id: 'inherited' }), { u: 1 }),
    ])
      expect(check(v), JSON.stringify(v)).toBe(S.safeParse(v).success);
  });

  it('leave to zod what they do not model (refinements, stripping or strict objects, enums)', () => {
    expect(compileCheck(z.string().min(2))).toBeUndefined();
    expect(compileCheck(z.object({ a: z.string() }))).toBeUndefined();
    expect(compileCheck(z.strictObject({ a: z.string() }))).toBeUndefined();
    expect(compileCheck(z.looseObject({ a: z.enum(['x']) }))).toBeUndefined();
  });
});

describe('the shape checker', () => {
  it('hands a matching answer on as sent, without copying it', () => {
    const check = createShapeChecker(createLogger('warn', () => {}));
    const S = pageOf(schemas.AlertSchema);
    const page = { results: [{ id: 'a1', status: 'OPEN', extra: { deep: [1] } }], totalCount: 1 };
    expect(check(S, 'Page<Alert>', page)).toBe(page);
  });

  it('still uses zod for schemas it cannot compile, and warns once on a mismatch', () => {
    const lines: string[] = [];
    const check = createShapeChecker(createLogger('warn', (l) => lines.push(l)));
    const S = z.looseObject({ kind: z.enum(['a', 'b']) });
    expect(check(S, 'Kind', { kind: 'a' })).toEqual({ kind: 'a' });
    const odd = { kind: 'c' };
    expect(check(S, 'Kind', odd)).toBe(odd);
    expect(check(S, 'Kind', odd)).toBe(odd);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('kind: invalid_value');
  });
});
