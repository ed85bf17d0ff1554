import { describe, expect, it } from 'vitest';
import { ifMatchAllows, ifMatchVersions, parseIfMatch, strongEtag } from './etag';

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

  // Strong comparison is exact string comparison of the opaque tag: no number parsing on any path.
  it.each(['"0379"', '"379.0"', '"+379"', '" 379"', '"3.79e2"', '"379 "'])(
    'never lets %s match the ETag "379", on either path',
    (header) => {
      expect(ifMatchAllows(header, strongEtag(379))).toBe(false);
      expect(ifMatchVersions(header)).toEqual([]);
    },
  );

  it.each([
    ['"379"', [379]],
    ['"1", W/"2", "3"', [1, 3]],
    ['*', null],
  ])('the conditional update of %s allows versions %j', (header, versions) =>
    expect(ifMatchVersions(header)).toEqual(versions),
  );
});
