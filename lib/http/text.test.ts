import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { decodeUtf8 } from './body';
import { decodeForm } from './form';
import { inputIssues, textProblem } from './text';
import { validateInput } from './validate';

describe('the text rule', () => {
  it.each(['', 'plain', 'émoji 🙂 ok', '\ud83d\ude42', 'tab\tand\nnewline', '\uffff', '\u{10ffff}'])(
    'accepts %j',
    (text) => expect(textProblem(text)).toBeNull(),
  );

  it.each([
    ['a\u0000b', 'NUL'],
    ['\u0000', 'NUL'],
    ['\ud800', 'surrogate'],
    ['x\udbffy', 'surrogate'],
    ['\udc00', 'surrogate'],
    ['\ude42\ud83d', 'surrogate'],
    ['ok\ud83d', 'surrogate'],
  ])('refuses %j (%s)', (text, why) => expect(textProblem(text)).toContain(why));

  it('reports every bad string of a parsed body at its dotted path, at any depth, keys included', () => {
    const body = JSON.parse(
      '{"comment":"a\\u0000b","matchers":[{"label":"x","op":"=","value":"\\ud800"}],"ok":"fine","bad\\u0000key":1}',
    ) as unknown;
    expect(inputIssues(body).map((i) => i.path)).toEqual(['comment', 'matchers.0.value', 'bad\u0000key']);
  });

  it('refuses a "__proto__" key, which JSON.parse makes an own property', () => {
    const body = JSON.parse('{"target":{"kind":"https","__proto__":{"url":"x"}},"__proto__":null}') as unknown;
    expect(inputIssues(body).map((i) => i.path)).toEqual(['target.__proto__', '__proto__']);
  });

  it('is applied with the schema, one issue per path, even where the schema also objects', () => {
    const schema = z.strictObject({
      label: z.string().regex(/^[a-z]+$/),
      items: z.array(z.strictObject({ n: z.int().min(1).max(10) })),
    });
    const result = validateInput(schema, { label: 'a\u0000', items: [{ n: 1e308, extra: true }] });
    expect(result.success).toBe(false);
    expect(result.issues.map((i) => i.path)).toEqual(['label', 'items.0.n', 'items.0.extra']);
    expect(result.issues[0].message).toContain('NUL');
  });
});

describe('strict UTF-8 bodies', () => {
  it.each([
    ['FF', [0x7b, 0xff, 0x7d]],
    ['overlong C0 AF', [0x22, 0xc0, 0xaf, 0x22]],
    ['encoded surrogate ED A0 80', [0x22, 0xed, 0xa0, 0x80, 0x22]],
    ['truncated sequence', [0x22, 0xe2, 0x82]],
    ['above U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ])('refuses %s with 400 at path ""', (_why, bytes) => {
    expect(() => decodeUtf8(new Uint8Array(bytes))).toThrow(
      expect.objectContaining({ status: 400, issues: [expect.objectContaining({ path: '' })] }),
    );
  });

  it('keeps valid multi-byte text as written', () => {
    expect(decodeUtf8(new TextEncoder().encode('"é🙂"'))).toBe('"é🙂"');
  });
});

describe('strict form and query decoding', () => {
  it('decodes like URLSearchParams when everything is valid', () => {
    const { params, issues } = decodeForm('?a=1&b=x+y%20z&c&d=%C3%A9&a=2');
    expect(issues).toEqual([]);
    expect([...params]).toEqual([...new URLSearchParams('a=1&b=x+y%20z&c&d=%C3%A9&a=2')]);
  });

  it.each([
    ['cursor=%FF', 'cursor', 'UTF-8'],
    ['cursor=%C0%AF', 'cursor', 'UTF-8'],
    ['cursor=%ED%A0%80', 'cursor', 'UTF-8'],
    ['user_code=a%00b', 'user_code', 'NUL'],
    ['%FF=1', '%FF', 'UTF-8'],
  ])('refuses %s at %s', (text, path, why) => {
    const { params, issues } = decodeForm(text);
    expect(issues).toEqual([{ path, message: expect.stringContaining(why) }]);
    expect([...params]).toEqual([]);
  });
});
