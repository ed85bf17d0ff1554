import { describe, expect, it } from 'vitest';
import { attributeProblems, attributesOf, bodyProblem, MAX_BODY_BYTES } from './message-draft';

describe('the publish dialog without React', () => {
  it('takes any JSON value as a body', () => {
    for (const text of ['{"order": 7}', '[1, 2]', '"text"', '42', 'null', ' true '])
      expect(bodyProblem(text)).toBeNull();
  });

  it('says what is wrong with broken JSON and where, as line and column', () => {
    expect(bodyProblem('{\n  "a": 1\n  "b": 2\n}')).toBe(
      "This is not valid JSON: expected ',' or '}' after property value (line 3, column 3).",
    );
    expect(bodyProblem('{"a": 1,}')).toBe(
      'This is not valid JSON: expected double-quoted property name (line 1, column 9).',
    );
    expect(bodyProblem('nope')).toMatch(/^This is not valid JSON: unexpected token 'o'\.$/);
    expect(bodyProblem('   ')).toMatch(/^Enter the message body/);
  });

  it('refuses a body over 128 KiB as JSON', () => {
    expect(bodyProblem(JSON.stringify('x'.repeat(MAX_BODY_BYTES)))).toBe('The body must be at most 128 KiB as JSON.');
    expect(bodyProblem(JSON.stringify('x'.repeat(MAX_BODY_BYTES - 2)))).toBeNull();
  });

  it('checks attribute names and values as the API does, and leaves empty rows out', () => {
    const rows = [
      { name: 'kind', value: 'test' },
      { name: '', value: '' },
      { name: 'bad name', value: 'x' },
      { name: 'kind', value: 'again' },
      { name: 'long', value: 'v'.repeat(257) },
    ];
    expect(attributeProblems(rows)).toEqual([
      {},
      {},
      { name: 'A name is 1 to 64 letters, digits, “_”, “.” and “-”.' },
      { name: 'Each name once.' },
      { value: 'A value is at most 256 characters.' },
    ]);
    expect(attributesOf(rows.slice(0, 2))).toEqual({ kind: 'test' });
  });
});
