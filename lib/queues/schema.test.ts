import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { validateInput } from '../http/validate';
import { createQueueBody, MAX_MESSAGE_BODY_BYTES, publishBody, RETENTION_SECONDS, updateQueueBody } from './schema';

/** The issue paths the route would answer for `input` (the shared text rules included), none when it passes. */
const paths = (schema: z.ZodType, input: unknown) => validateInput(schema, input).issues.map((i) => i.path);
const publish = (message: Record<string, unknown>) => paths(publishBody, { messages: [message] });

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

describe('publishing', () => {
  it('accepts any JSON value as a body, and 1 to 100 messages', () => {
    // A `__proto__` key is refused at any depth of any body (lib/http/text.ts), so it is no JSON value here.
    const json = fc.jsonValue().filter((value) => !JSON.stringify(value).includes('"__proto__":'));
    fc.assert(
      fc.property(json, (body) => {
        expect(publish({ body })).toEqual([]);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (n) => {
        expect(paths(publishBody, { messages: Array.from({ length: n }, () => ({ body: n })) })).toEqual([]);
      }),
    );
    expect(paths(publishBody, { messages: [] })).toEqual(['messages']);
    expect(paths(publishBody, { messages: Array.from({ length: 101 }, () => ({ body: 1 })) })).toEqual(['messages']);
    expect(paths(publishBody, {})).toEqual(['messages']);
  });

  it('needs a body, of at most 128 KiB as JSON text in UTF-8', () => {
    expect(publish({})).toEqual(['messages.0.body']);
    expect(publish({ body: null })).toEqual([]);
    // A string's JSON is its characters and two quotes; é is two bytes in UTF-8.
    const fits = 'é'.repeat((MAX_MESSAGE_BODY_BYTES - 2) / 2);
    expect(publish({ body: fits })).toEqual([]);
    expect(publish({ body: `${fits}x` })).toEqual(['messages.0.body']);
    expect(publish({ body: { a: 'x'.repeat(MAX_MESSAGE_BODY_BYTES) } })).toEqual(['messages.0.body']);
  });

  it('refuses text no database can store anywhere in a body, and a `__proto__` key, at its path', () => {
    expect(publish({ body: { deep: ['ok', 'a\u0000b'] } })).toEqual(['messages.0.body.deep.1']);
    expect(publish({ body: JSON.parse('{"a":{"__proto__":1}}') })).toEqual(['messages.0.body.a.__proto__']);
    expect(publish({ body: '\ud800' })).toEqual(['messages.0.body']);
  });

  it('takes at most 16 attributes, names of [A-Za-z0-9_.-]{1,64}, values of at most 256 characters', () => {
    const name = fc.string({ unit: fc.constantFrom(...'aZ09_.-'), minLength: 1, maxLength: 64 });
    const value = fc.string({ maxLength: 256 }).filter((v) => !/[\u0000\ud800-\udfff]/.test(v));
    fc.assert(
      fc.property(fc.dictionary(name, value, { maxKeys: 16 }), (attributes) => {
        expect(publish({ body: 1, attributes })).toEqual([]);
      }),
    );
    const seventeen = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`a${i}`, 'x']));
    expect(publish({ body: 1, attributes: seventeen })).toEqual(['messages.0.attributes']);
    expect(publish({ body: 1, attributes: { 'a b': 'x', ['n'.repeat(65)]: 'x', ok: 'x' } }).sort()).toEqual([
      'messages.0.attributes.a b',
      `messages.0.attributes.${'n'.repeat(65)}`,
    ]);
    // Every problem at once: a count over 16 beside a value too long.
    const crowded = { ...seventeen, a0: 'v'.repeat(257) };
    expect(publish({ body: 1, attributes: crowded }).sort()).toEqual([
      'messages.0.attributes',
      'messages.0.attributes.a0',
    ]);
    // Characters, not UTF-16 units: 256 emoji fit, 257 do not.
    expect(publish({ body: 1, attributes: { e: '😀'.repeat(256) } })).toEqual([]);
    expect(publish({ body: 1, attributes: { e: '😀'.repeat(257) } })).toEqual(['messages.0.attributes.e']);
    expect(publish({ body: 1, attributes: { n: 5 } })).toEqual(['messages.0.attributes.n']);
    expect(publish({ body: 1, attributes: ['x'] })).toEqual(['messages.0.attributes']);
  });

  it('takes a delay of 0 to 900 whole seconds, and refuses unknown fields at their path', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 900 }), (d) => {
        expect(publish({ body: 1, delaySeconds: d })).toEqual([]);
      }),
    );
    for (const d of [-1, 901, 1.5, '10', null])
      expect(publish({ body: 1, delaySeconds: d }), String(d)).toEqual(['messages.0.delaySeconds']);
    expect(publish({ body: 1, id: 'x' })).toEqual(['messages.0.id']);
    expect(paths(publishBody, { messages: [{ body: 1 }], queueId: 'x' })).toEqual(['queueId']);
  });
});
