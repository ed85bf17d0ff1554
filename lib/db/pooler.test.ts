import { describe, expect, it } from 'vitest';
import { readSettings } from '../settings/settings';
import { assertSessionFree, directDatabaseUrl, postgresUrls, SessionStateError } from './pooler';

const pooled = 'postgres://svc@127.0.0.1:6432/svc';
const direct = 'postgres://svc@127.0.0.1:5432/svc';

describe('postgresUrls', () => {
  it('is null on the embedded database', () => {
    expect(postgresUrls({})).toBeNull();
    expect(directDatabaseUrl({})).toBeUndefined();
  });

  it('uses DATABASE_URL for everything, with no pooler, when it is the only URL', () => {
    expect(postgresUrls({ DATABASE_URL: direct })).toEqual({
      url: direct,
      directUrl: direct,
      transactionPooler: false,
    });
    expect(directDatabaseUrl({ DATABASE_URL: direct })).toBe(direct);
  });

  it('assumes a transaction pooler once a separate direct URL is given, unless told otherwise', () => {
    const env = { DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct };
    expect(postgresUrls(env)).toEqual({ url: pooled, directUrl: direct, transactionPooler: true });
    expect(postgresUrls({ ...env, DATABASE_POOLER: 'none' })?.transactionPooler).toBe(false);
    expect(postgresUrls({ DATABASE_URL: pooled, DATABASE_POOLER: 'transaction' })).toEqual({
      url: pooled,
      directUrl: pooled,
      transactionPooler: true,
    });
    expect(directDatabaseUrl(env)).toBe(direct);
  });

  it('refuses a pooler mode it does not know, at start', () => {
    expect(() => readSettings({ DATABASE_URL: pooled, DATABASE_POOLER: 'session' })).toThrow(/DATABASE_POOLER/);
  });
});

describe('assertSessionFree', () => {
  it.each([
    'set statement_timeout = 0',
    'SET SESSION synchronous_commit TO off',
    '  set search_path to x',
    'reset all',
    'listen svc_events',
    'prepare p as select 1',
    'discard all',
    'select pg_advisory_lock(1)',
    'select pg_try_advisory_lock($1)',
    'select pg_advisory_unlock(727274)',
    'select pg_advisory_lock_shared(1)',
    `select set_config('search_path', 'x', false)`,
  ])('refuses %j, which outlives its transaction', (text) => {
    expect(() => assertSessionFree(text)).toThrow(SessionStateError);
  });

  it.each([
    'set local enable_seqscan = off',
    'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY',
    'set constraints all deferred',
    'select pg_advisory_xact_lock(727275)',
    `select set_config('synchronous_commit', 'off', true)`,
    'select "offset", "settings" from t where reset_at < now()',
    'update t set listen = 1',
  ])('lets %j through, which ends with its transaction', (text) => {
    expect(() => assertSessionFree(text)).not.toThrow();
  });
});
