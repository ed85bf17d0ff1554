import { describe, expect, it } from 'vitest';
import {
  DatabaseUnavailableError,
  isDatabaseUnavailable,
  noteDatabaseFailure,
  watchingDatabaseFailures,
} from './errors';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('counts connection failures, shutdowns, refusals and timeouts as unavailable (503)', () => {
    for (const code of ['08006', '08001', '08P01', '57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ETIMEDOUT'])
      expect(isDatabaseUnavailable(pgError(code)), code).toBe(true);
    expect(isDatabaseUnavailable(pgError('55000', 'database "x" is not currently accepting connections'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Query read timeout'))).toBe(true);
    expect(isDatabaseUnavailable(new DatabaseUnavailableError())).toBe(true);
  });

  it('looks through wrapping errors (drizzle puts the driver error in `cause`)', () => {
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: pgError('57P01') }))).toBe(true);
  });

  it('keeps bugs and other states as 500: a 55000 that is not a refused connection, syntax errors, violations', () => {
    expect(isDatabaseUnavailable(pgError('55000', 'object not in prerequisite state'))).toBe(false);
    expect(isDatabaseUnavailable(pgError('42601', 'syntax error'))).toBe(false);
    expect(isDatabaseUnavailable(pgError('23505', 'duplicate key'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
  });
});

describe('watchingDatabaseFailures', () => {
  it('reports an unavailable database noted inside, even when the caller swallowed the error', async () => {
    const swallowing = () =>
      Promise.reject(pgError('57P03'))
        .catch(noteDatabaseFailure)
        .catch(() => 'swallowed');
    expect(await watchingDatabaseFailures(swallowing)).toEqual({ result: 'swallowed', unavailable: true });
    const bug = () =>
      Promise.reject(new TypeError('bug'))
        .catch(noteDatabaseFailure)
        .catch(() => 'swallowed');
    expect(await watchingDatabaseFailures(bug)).toEqual({ result: 'swallowed', unavailable: false });
  });
});
