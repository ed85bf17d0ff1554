import { describe, expect, it } from 'vitest';
import { ifMatchAllows, parseIfMatch, strongEtag } from './etag';

describe('If-Match', () => {
  const current = strongEtag(3);
  it.each([
    ['*', true],
    ['"3"', true],
    ['"1", "3"', true],
    ['"1","2" , "3"', true],
    [', "3",', true],
    ['"2"', false],
    ['W/"3"', false],
    ['W/"3", "4"', false],
    ['"a,b", "3"', true],
  ])('%s → %s', (header, allowed) => expect(ifMatchAllows(header, current)).toBe(allowed));

  it.each(['3', '"3', '"3" "4"', ',', '', '* , "3"', 'w/"3"', '"3"x'])('refuses the malformed %j', (header) =>
    expect(parseIfMatch(header)).toBeNull(),
  );

  it('allows a request without If-Match', () => expect(ifMatchAllows(null, current)).toBe(true));
});
