import { describe, expect, it } from 'vitest';
import { assertDatabaseMayBeUp, noteDatabaseFailed } from './breaker';
import { isDatabaseUnavailable } from './errors';

describe('the database breaker', () => {
  it('refuses at once for a while after an unavailable failure, then lets the next try through', () => {
    const t0 = 1_000_000;
    noteDatabaseFailed(new Error('a bug, not an outage'), t0);
    expect(() => assertDatabaseMayBeUp(t0 + 1)).not.toThrow();
    noteDatabaseFailed(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }), t0);
    let refused: unknown;
    try {
      assertDatabaseMayBeUp(t0 + 1_000);
    } catch (err) {
      refused = err;
    }
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(() => assertDatabaseMayBeUp(t0 + 2_000)).not.toThrow();
  });
});
