import { eq, sql } from 'drizzle-orm';
import { NextRequest } from 'next/server';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateAuthCaches } from '../auth/epoch';
import { AUTH_EPOCH_QUERY } from '../db/auth-epoch';
import { getCounterPool, getDb, getPgPool, preparedStatement, runStatement } from '../db/client';
import { SessionStateError } from '../db/pooler';
import * as t from '../db/schema';
import { insertDemoKey, scratchPostgres } from '../../server/testing/test-database';
import { admitCaller } from '../pipeline/authenticate';
import { Limiter } from './rate-limit';

/**
 * What a request leaves on the server sessions of the app's pools. Each pool has one session here, so what the
 * last statement of a pool sees is what every earlier statement of that pool left behind.
 */
async function sessionState(pool: pg.Pool) {
  const { rows } = await pool.query<{ prepared: number; settings: string[] }>(
    `select (select count(*)::int from pg_prepared_statements) as prepared,
            (select coalesce(array_agg(name order by name), '{}') from pg_settings where source = 'session') as settings`,
  );
  return rows[0];
}

/**
 * The hot paths' statements: the rate-limit upsert and its epoch read (`admit`), the epoch read alone, named
 * statements. The limiters keep their store for the process: the second database of this file counts with a
 * limiter of its own.
 */
async function hotPaths(admit: () => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await admit();
  await validateAuthCaches();
  const byName = preparedStatement((db) =>
    db
      .select({ id: t.organizations.id })
      .from(t.organizations)
      .where(eq(t.organizations.name, sql.placeholder('name')))
      .prepare('pooler_sessions_org'),
  );
  for (let i = 0; i < 2; i++) {
    expect(await (await byName()).execute({ name: 'Acme' })).toHaveLength(1);
    expect(await runStatement('select $1::int + 1 as n', [i])).toEqual([{ n: i + 1 }]);
  }
}

const pooler = { ...(await scratchPostgres('pooler')), env: { DATABASE_POOLER: 'transaction' } };
const direct = { ...(await scratchPostgres('direct')), env: { DATABASE_POOLER: 'none' } };

function withEnv(env: Record<string, string>) {
  const all = { ...env, DATABASE_POOL_SIZE: '1', DATABASE_COUNTER_POOL_SIZE: '1' };
  beforeAll(() => void Object.assign(process.env, all));
  afterAll(() => Object.keys(all).forEach((name) => delete process.env[name]));
}

describe.skipIf(!pooler.reachable)('behind a transaction pooler (DATABASE_POOLER=transaction)', () => {
  withEnv(pooler.env);
  pooler.use({ seedDemo: true });

  it('leaves no named statement and no session setting on any pooled session', async () => {
    const { secret } = await insertDemoKey('pooler sessions');
    const headers = { authorization: `Bearer ${secret}` };
    await hotPaths(() => admitCaller(new NextRequest('http://127.0.0.1/v1/organizations', { headers })));
    expect(await sessionState((await getPgPool())!)).toEqual({ prepared: 0, settings: [] });
    expect(await sessionState((await getCounterPool())!)).toEqual({ prepared: 0, settings: [] });
  });

  it('refuses a session SET, a session advisory lock and LISTEN before they reach the server', async () => {
    const pool = (await getPgPool())!;
    for (const text of ['set statement_timeout = 0', 'select pg_advisory_lock(1)', 'listen svc'])
      await expect(pool.query(text)).rejects.toBeInstanceOf(SessionStateError);
    const db = await getDb();
    const refused = await db.execute(sql`set work_mem = '8MB'`).catch((err: Error) => err.cause ?? err);
    expect(refused).toBeInstanceOf(SessionStateError);
    // What ends with its transaction passes.
    const inside = await db.transaction(async (tx) => {
      await tx.execute(sql`set local work_mem = '8MB'`);
      await tx.execute(sql`select pg_advisory_xact_lock(1)`);
      return (await tx.execute<{ work_mem: string }>(sql`show work_mem`)).rows[0].work_mem;
    });
    expect(inside).toBe('8MB');
    expect(await sessionState(pool)).toEqual({ prepared: 0, settings: [] });
  });

  it('commits each counter without waiting for the disk, as a setting of its own transaction', async () => {
    const counters = (await getCounterPool())!;
    const { rows } = await counters.query<{ synchronous_commit: string }>('show synchronous_commit');
    expect(rows[0].synchronous_commit).toBe('on');
  });
});

// The control: on a direct connection the same paths keep their named statements, parsed once per session.
describe.skipIf(!direct.reachable)('on PostgreSQL directly (DATABASE_POOLER=none)', () => {
  withEnv(direct.env);
  direct.use({ seedDemo: true });

  it('names the hot statements, and still sets nothing on the sessions', async () => {
    const limiter = new Limiter(
      'pooler-direct',
      () => 100,
      () => 60,
      AUTH_EPOCH_QUERY,
    );
    await hotPaths(() => limiter.take('k'));
    expect((await sessionState((await getPgPool())!)).prepared).toBeGreaterThanOrEqual(3);
    expect(await sessionState((await getCounterPool())!)).toMatchObject({ prepared: 1, settings: [] });
  });
});
