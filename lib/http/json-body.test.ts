import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../errors';
import { MAX_JSON_DEPTH, nestsDeeperThan, parseJsonBody, TOO_DEEP_MESSAGE } from './json-body';
import { inputIssues } from './text';
import { validateInput } from './validate';

type Kind = 'array' | 'object' | 'mixed';

/** `{"name": …}` with the string "x" nested `depth` containers deep in all (the outer object counts). */
function nested(depth: number, kind: Kind, leaf = '"x"'): string {
  const inner = depth - 1;
  const open = (i: number) => (kind === 'array' || (kind === 'mixed' && i % 2 === 0) ? '[' : '{"k":');
  const close = (i: number) => (open(i) === '[' ? ']' : '}');
  let text = leaf;
  for (let i = inner - 1; i >= 0; i--) text = open(i) + text + close(i);
  return `{"name":${text}}`;
}

const schema = z.strictObject({ name: z.string() });

function refusal(text: string): unknown {
  try {
    parseJsonBody(text, schema);
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, issues: err.issues };
    throw err;
  }
  return null;
}

const depths = fc.oneof(
  fc.integer({ min: 1, max: MAX_JSON_DEPTH + 8 }),
  fc.integer({ min: MAX_JSON_DEPTH + 1, max: 100_000 }),
);

describe('the depth limit of a JSON body', () => {
  it(`accepts ${MAX_JSON_DEPTH} levels and refuses every depth past it, with one issue at ""`, () => {
    fc.assert(
      fc.property(depths, fc.constantFrom<Kind>('array', 'object', 'mixed'), (depth, kind) => {
        const text = nested(depth, kind);
        expect(nestsDeeperThan(text)).toBe(depth > MAX_JSON_DEPTH);
        if (depth > MAX_JSON_DEPTH)
          expect(refusal(text)).toEqual({
            code: 'invalid_request',
            issues: [{ path: '', message: TOO_DEEP_MESSAGE }],
          });
        else expect(refusal(text)).toBeNull();
      }),
      {
        examples: [
          [MAX_JSON_DEPTH, 'array'],
          [MAX_JSON_DEPTH + 1, 'array'],
          [100_000, 'object'],
        ],
      },
    );
  });

  it('counts brackets inside strings and after escaped quotes as text, not nesting', () => {
    const deepText = JSON.stringify({ name: '['.repeat(1000) + '\\"{'.repeat(1000) });
    expect(nestsDeeperThan(deepText)).toBe(false);
    expect(refusal(deepText)).toBeNull();
    expect(nestsDeeperThan(`{"a":"\\\\",${'['.repeat(40)}${']'.repeat(40)}}`)).toBe(true);
  });

  it('keeps the other refusals: no body, and text that is not JSON', () => {
    expect(refusal('')).toEqual({
      code: 'invalid_request',
      issues: [{ path: '', message: 'A JSON request body is required.' }],
    });
    expect(refusal('['.repeat(100_000))).toEqual({
      code: 'invalid_request',
      issues: [{ path: '', message: 'The request body is not valid JSON.' }],
    });
  });
});

describe('the text walk of parsed input', () => {
  it('walks a value 100,000 levels deep without recursion, and finds the bad text at its end', () => {
    const value = JSON.parse(nested(100_000, 'mixed', '"a\\u0000b"')) as unknown;
    const issues = inputIssues(value);
    expect(issues).toHaveLength(1);
    expect(issues[0].path.split('.')).toHaveLength(100_000);
    expect(issues[0].message).toContain('NUL');
  });

  it('walks an array of 500,000 elements (more than a call takes arguments)', () => {
    const value = { name: [...Array(500_000).fill('ok'), '\ud800'] };
    expect(inputIssues(value)).toEqual([
      { path: 'name.500000', message: 'The text contains a lone UTF-16 surrogate, which is not a Unicode character.' },
    ]);
  });

  it('answers a deep value with issues, never a thrown stack overflow', () => {
    const value = JSON.parse(nested(50_000, 'array')) as unknown;
    const result = validateInput(schema, value);
    expect(result.success).toBe(false);
    expect(result.issues.map((i) => i.path)).toEqual(['name']);
  });
});
