import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { validateInput } from '../http/validate';
import { createQueueBody, RETENTION_SECONDS, updateQueueBody } from './schema';

/** The issue paths the route would answer for `input` (the shared text rules included), none when it passes. */
const paths = (schema: z.ZodType, input: unknown) => validateInput(schema, input).issues.map((i) => i.path);

describe('a queue’s name and retention', () => {
  it('accepts every name of 1 to 63 of [a-z0-9-] that starts with a letter', () => {
    const name = fc
      .tuple(
        fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'),
        fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-'), maxLength: 62 }),
      )
      .map(([first, rest]) => first + rest);
    fc.assert(
      fc.property(name, (n) => {
        expect(paths(createQueueBody, { name: n })).toEqual([]);
      }),
    );
  });

  it('refuses any other name at `name`', () => {
    const valid = /^[a-z][a-z0-9-]{0,62}$/;
    const other = fc.oneof(fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme-ascii', maxLength: 70 }));
    fc.assert(
      fc.property(
        other.filter((n) => !valid.test(n)),
        (n) => {
          expect(paths(createQueueBody, { name: n })).toContain('name');
        },
      ),
    );
    for (const n of ['', '1abc', '-abc', 'Orders', 'a'.repeat(64), 'a_b', 'a b', 42, null])
      expect(paths(createQueueBody, { name: n }), String(n)).toEqual(['name']);
  });

  it('takes a retention of 60 to 1,209,600 whole seconds', () => {
    fc.assert(
      fc.property(fc.integer({ min: RETENTION_SECONDS.min, max: RETENTION_SECONDS.max }), (s) => {
        expect(paths(updateQueueBody, { retentionSeconds: s })).toEqual([]);
      }),
    );
    const outside = fc.oneof(
      fc.integer({ max: RETENTION_SECONDS.min - 1 }),
      fc.integer({ min: RETENTION_SECONDS.max + 1 }),
      fc.double({ min: 60, max: 1e6, noNaN: true }).filter((d) => !Number.isInteger(d)),
      fc.constantFrom('3600', null, true, 1e308),
    );
    fc.assert(
      fc.property(outside, (s) => {
        expect(paths(updateQueueBody, { retentionSeconds: s })).toEqual(['retentionSeconds']);
      }),
    );
  });

  it('a PATCH takes only the retention: the name and unknown fields are refused at their own path', () => {
    expect(paths(updateQueueBody, { retentionSeconds: 60, name: 'x', extra: 1 }).sort()).toEqual(['extra', 'name']);
    expect(paths(updateQueueBody, {})).toEqual(['retentionSeconds']);
    expect(paths(createQueueBody, { name: 'orders', slug: 'que_x' })).toEqual(['slug']);
  });
});
