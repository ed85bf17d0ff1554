import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors';
import { cursorCodec, dateOf, fieldOf } from './cursor';
import { decodeCursor, encodeCursor } from './pagination';

const seq = cursorCodec<number>(
  (n) => ({ seq: n }),
  (value) => {
    const n = fieldOf(value, 'seq');
    return typeof n === 'number' && n > 0 ? n : null;
  },
);

const codeOf = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err instanceof ApiError ? err.code : String(err);
  }
  return null;
};

describe('cursorCodec', () => {
  it('gives back the position it wrote, as opaque base64url text', () => {
    const cursor = seq.encode(42);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(seq.decode(cursor)).toBe(42);
  });

  it('answers 400 invalid_cursor for anything it did not hand out', () => {
    const foreign = (json: string) => Buffer.from(json).toString('base64url');
    for (const cursor of ['garbage', foreign('null'), foreign('[1]'), foreign('{"seq":-1}'), foreign('{"seq":"1"}')])
      expect(
        codeOf(() => seq.decode(cursor)),
        cursor,
      ).toBe('invalid_cursor');
  });

  it('reads fields and dates of any JSON without throwing', () => {
    expect(fieldOf(null, 'at')).toBeUndefined();
    expect(fieldOf({ at: 1 }, 'at')).toBe(1);
    expect(dateOf('2026-01-02T03:04:05.006Z')?.toISOString()).toBe('2026-01-02T03:04:05.006Z');
    expect(dateOf('not a date')).toBeNull();
    expect(dateOf(5)).toBeNull();
  });
});

describe("the keyset lists' cursor", () => {
  it('round-trips (at, id) and refuses a malformed id or date', () => {
    const position = { at: new Date('2026-03-04T05:06:07.089Z'), id: '0b6c3f4e-8a1d-4c2b-9e7f-1a2b3c4d5e6f' };
    expect(decodeCursor(encodeCursor(position))).toEqual(position);
    const forged = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    expect(codeOf(() => decodeCursor(forged({ at: position.at.toISOString(), id: 'x' })))).toBe('invalid_cursor');
    expect(codeOf(() => decodeCursor(forged({ at: 'soon', id: position.id })))).toBe('invalid_cursor');
  });
});
