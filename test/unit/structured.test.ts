// boundStructured: whatever a tool returns, the structured part a client may hand its model is sanitized,
// within the cap, keeps each top-level field and its type (so output schemas hold), says what was cut,
// and keeps a nextStep the tool (or the policy layer) already set.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundStructured } from '../../src/format/structured.js';

const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/;
const hostile = fc.constantFrom(
  '\u202Eevil',
  'zero\u200Bwidth',
  'bell\u0007',
  '</data-00000000>',
  'x'.repeat(5000),
);
const text = fc.oneof(fc.string(), hostile);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 60 }),
    fc.dictionary(text, tie('value'), { maxKeys: 6 }),
  ),
}));
const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const opts = { nextStep: 'Answer from this result.', more: 'Page on with pageNum.' };

describe('boundStructured', () => {
  it('stays within the cap, sanitized, with every top-level field of the same type and a nextStep', () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 8 }),
        fc.integer({ min: 2000, max: 20000 }),
        (input, max) => {
          const out = boundStructured(input, { ...opts, max });
          const json = JSON.stringify(out);
          expect(json.length).toBeLessThanOrEqual(max);
          expect(UNSAFE.test(json)).toBe(false);
          expect(typeof out['nextStep']).toBe('string');
          for (const [k, v] of Object.entries(input)) {
            const key = k.replace(UNSAFE, '');
            if (Object.hasOwn(out, key) && k === key) expect(typeOf(out[key]), k).toBe(typeOf(v));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('keeps a platform key named __proto__ as data (the property test found it)', () => {
    const input = JSON.parse('{"__proto__": "x", "a": [1]}');
    const out = boundStructured(input, opts);
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(JSON.parse(JSON.stringify(out)), '__proto__')?.value).toBe('x');
  });

  it('keeps a page that fits whole, and says what it cut from one that does not', () => {
    const row = (i: number) => ({ id: `id-${i}`, comment: 'c'.repeat(150) });
    const small = { totalCount: 3, results: [row(1), row(2), row(3)] };
    expect(boundStructured(small, opts)).toEqual({ ...small, nextStep: opts.nextStep });
    const big = {
      totalCount: 5000,
      pageNum: 1,
      itemsPerPage: 500,
      results: Array.from({ length: 500 }, (_, i) => row(i)),
    };
    const out = boundStructured(big, opts) as {
      results: unknown[];
      leftOut: Array<{ path: string; kept: number; of: number }>;
      nextStep: string;
    };
    expect(out.results.length).toBeGreaterThan(50);
    expect(out.results).toEqual(big.results.slice(0, out.results.length));
    expect(out.leftOut).toEqual([{ path: 'results', kept: out.results.length, of: 500 }]);
    expect(out.nextStep).toContain(`results: ${out.results.length} of 500`);
    expect(out.nextStep).toContain(opts.more);
  });

  it('counts what it measures without building to the character: at every cap, never a character over', () => {
    // The attempts that do not fit are measured, not built: an error of a few characters would pass a cap.
    const row = (i: number) => ({ id: `id-${i}`, tags: ['a', 'bb'], note: 'n'.repeat(i % 7) });
    const results = Array.from({ length: 300 }, (_, i) => row(i));
    const ownStep = { results, nextStep: 'Ask again with a narrower filter.' };
    const withLeftOut = { results, leftOut: ['as the tool said'] };
    for (const input of [{ totalCount: 300, results }, ownStep, withLeftOut])
      for (let max = 2000; max < 2300; max++) {
        const out = boundStructured(input, { ...opts, max });
        expect(JSON.stringify(out).length, `max ${max}`).toBeLessThanOrEqual(max);
        expect((out['results'] as unknown[]).length).toBeGreaterThan(10);
      }
  });

  it('keeps the nextStep and consent handles a guarded outcome already carries', () => {
    const token = `t.${'x'.repeat(900)}`;
    const pending = {
      outcome: 'confirmation_required',
      preview: { action: 'Disable', current: { notes: 'n'.repeat(40_000) } },
      confirmation: { channel: 'token', confirmationToken: token },
      nextStep: 'Show the preview; call again with confirmationToken.',
    };
    const out = boundStructured(pending, opts) as typeof pending;
    expect(out.confirmation.confirmationToken).toBe(token);
    expect(out.nextStep.startsWith(pending.nextStep)).toBe(true);
    expect(JSON.stringify(out).length).toBeLessThanOrEqual(16_000);
  });
});
