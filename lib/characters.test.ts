import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApiKeyBody } from './api-keys/schema';
import { atMostCharacters, characterCount } from './characters';
import { buildOpenApiDocument } from './pipeline/openapi';
import { allOperations } from '../server/operations';
import { MAX_VALUE, matcherSchema } from './silences/matchers';
import { commentSchema } from './silences/schema';

describe('characterCount', () => {
  it('counts code points: an emoji is one, a lone surrogate one, a joined sequence each of its parts', () => {
    expect(characterCount('')).toBe(0);
    expect(characterCount('deploy')).toBe(6);
    expect(characterCount('😀')).toBe(1);
    expect(characterCount('a😀b')).toBe(3);
    expect(characterCount('\ud800')).toBe(1);
    expect(characterCount('\udc00\ud800')).toBe(2);
    expect(characterCount('👩‍👩‍👧')).toBe(5);
  });

  it('agrees with the string iterator for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
        expect(characterCount(text)).toBe([...text].length);
      }),
    );
  });
});

describe('atMostCharacters', () => {
  it('accepts a text exactly when it has at most max code points, whatever its UTF-16 length', () => {
    const schema = atMostCharacters(z.string(), 5, 'At most 5 characters.');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 12 }), (text) => {
        const result = schema.safeParse(text);
        expect(result.success).toBe([...text].length <= 5);
        if (!result.success) expect(result.error.issues.map((i) => i.message)).toEqual(['At most 5 characters.']);
      }),
    );
  });

  it('holds the spec’s limits in characters: a key name of 100 emoji, a comment of 1000, a matcher value of 1024', () => {
    expect(createApiKeyBody.safeParse({ name: '🔑'.repeat(100) }).success).toBe(true);
    expect(createApiKeyBody.safeParse({ name: '🔑'.repeat(101) }).error?.issues).toEqual([
      expect.objectContaining({ path: ['name'], message: 'Use at most 100 characters.' }),
    ]);
    // The name is trimmed first: spaces around it count for nothing.
    expect(createApiKeyBody.safeParse({ name: ` ${'🔑'.repeat(100)} ` }).success).toBe(true);
    expect(commentSchema.safeParse('🔕'.repeat(1000)).success).toBe(true);
    expect(commentSchema.safeParse('🔕'.repeat(1001)).success).toBe(false);
    const matcher = (value: string) => matcherSchema.safeParse({ label: 'team', op: '=', value });
    expect(matcher('é'.normalize('NFD').repeat(MAX_VALUE / 2)).success).toBe(true);
    expect(matcher('🚨'.repeat(MAX_VALUE)).success).toBe(true);
    expect(matcher('🚨'.repeat(MAX_VALUE + 1)).success).toBe(false);
  });

  it('keeps maxLength in the OpenAPI document', () => {
    const schemas = buildOpenApiDocument(allOperations).components!.schemas!;
    expect(schemas.CreateApiKey).toMatchObject({
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 100 },
      },
    });
  });
});
