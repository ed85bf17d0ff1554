import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonAround } from './canonical';

describe('canonicalJson', () => {
  it('sorts keys at every depth, drops undefined members and writes no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'x', null], c: true }, u: undefined })).toBe(
      '{"a":{"c":true,"d":[1,"x",null]},"b":1}',
    );
  });

  it('sorts by UTF-16 code units and escapes strings as JSON does', () => {
    expect(canonicalJson({ é: 1, z: 2, Z: 3, '\u0001': 'a"b\n' })).toBe('{"\\u0001":"a\\"b\\n","Z":3,"z":2,"é":1}');
  });

  it('is the same text for objects that differ only in key order, and parses back to the value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = canonicalJson(value);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
        const reordered = JSON.parse(JSON.stringify(value), (_k, v: unknown) =>
          v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).reverse()) : v,
        ) as unknown;
        expect(canonicalJson(reordered)).toBe(text);
      }),
    );
  });

  it('refuses numbers JSON cannot carry', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(TypeError);
  });
});

describe('canonicalJsonAround', () => {
  it('splits the canonical text around the key so any integer completes it', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), fc.nat(), (object, key, n) => {
        const [before, after] = canonicalJsonAround(object, key);
        expect(before + String(n) + after).toBe(canonicalJson({ ...object, [key]: n }));
      }),
    );
  });
});
