import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { bearer, expect, sessionFor, test } from '../fixtures';
import { E2E } from '../support/env';
import {
  columnsOf,
  readRows,
  RELEASE_TABLES,
  releaseSecretsFile,
  releaseSqlFile,
  TEXT_SETTINGS,
  type ReleaseSecrets,
  type TableRows,
} from '../support/release-fixture';
import { spawnServer } from '../support/spawn-server';

type Query = (text: string) => Promise<{ rows: unknown[] }>;
/** A database to upgrade: the server's environment for it, and a session on it while no server runs. */
type Target = {
  env: Record<string, string>;
  open: <T>(fn: (exec: (text: string) => Promise<unknown>, query: Query) => Promise<T>) => Promise<T>;
  drop: () => Promise<void>;
};

const PORT = E2E.port + 52;
// Housekeeping would delete the release's expired idempotency record and idle rate-limit row: this test is
// about migrations, so the background jobs never start.
const NO_JOBS = { BACKGROUND_START_DELAY_MS: '86400000' };
const todaysMigrations = (
  JSON.parse(readFileSync(path.join(process.cwd(), 'drizzle/meta/_journal.json'), 'utf8')) as { entries: unknown[] }
).entries.length;

function embedded(): Target {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-upgrade-'));
  return {
    env: { DATA_DIR: dir },
    open: async (fn) => {
      const db = new PGlite(path.join(dir, 'pglite'), { extensions: { pg_trgm } });
      try {
        return await fn(
          (text) => db.exec(text),
          (text) => db.query(text),
        );
      } finally {
        await db.close();
      }
    },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgres(): Promise<Target> {
  const url = new URL(process.env.DATABASE_URL!);
  const database = `svc_e2e_upgrade_${process.pid}`;
  const admin = new pg.Client({ connectionString: Object.assign(new URL(url), { pathname: '/postgres' }).href });
  await admin.connect();
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.query(`create database ${database}`);
  const own = Object.assign(new URL(url), { pathname: `/${database}` }).href;
  return {
    env: { DATABASE_URL: own },
    open: async (fn) => {
      const client = new pg.Client({ connectionString: own });
      await client.connect();
      try {
        return await fn(
          (text) => client.query(text),
          (text) => client.query(text),
        );
      } finally {
        await client.end();
      }
    },
    drop: async () => {
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    },
  };
}

/** Every row of the release's tables, its columns only, as text. */
async function releaseRows(query: Query, columns?: Record<string, string[]>) {
  const all: Record<string, TableRows> = {};
  for (const table of RELEASE_TABLES)
    all[table] = await readRows(query, table, columns?.[table] ?? (await columnsOf(query, table)));
  return all;
}

async function upgradeFromTheFirstRelease(target: Target) {
  const secrets = JSON.parse(readFileSync(releaseSecretsFile, 'utf8')) as ReleaseSecrets;
  // The first release's database, as it left it.
  const before = await target.open(async (exec, query) => {
    await exec(readFileSync(releaseSqlFile, 'utf8'));
    await exec(TEXT_SETTINGS);
    expect((await query('select count(*)::int as n from drizzle.__drizzle_migrations')).rows).toEqual([{ n: 3 }]);
    return releaseRows(query);
  });
  expect(before.api_keys.rows).toHaveLength(4);
  expect(before.silences.rows).toHaveLength(7);

  // Today's server applies every later migration as it starts, then stops.
  const first = await spawnServer(PORT, { ...target.env, ...NO_JOBS });
  await first.stop();

  const columns = Object.fromEntries(Object.entries(before).map(([table, rows]) => [table, rows.columns]));
  await target.open(async (exec, query) => {
    await exec(TEXT_SETTINGS);
    const { rows } = await query('select count(*)::int as n from drizzle.__drizzle_migrations');
    expect(rows).toEqual([{ n: todaysMigrations }]);
    const after = await releaseRows(query, columns);
    for (const table of RELEASE_TABLES) {
      // Every start writes today's policy table: the release's policies are still there, under their names.
      if (table === 'policies')
        expect(after.policies.rows.map((r) => r[0])).toEqual(
          expect.arrayContaining(before.policies.rows.map((r) => r[0])),
        );
      else expect(after[table], table).toEqual(before[table]);
    }
    // Every organization of the release has the head its audit chain grows from (migration 0007).
    const heads = await query('select seq::int as seq, hash from audit_chain_heads order by organization_id');
    expect(heads.rows).toEqual(before.organizations.rows.map(() => ({ seq: 0, hash: '' })));
  });

  // And the upgraded database serves: a second start (nothing left to migrate), the release's credentials, new
  // writes on its rows, and audit chains that verify.
  const server = await spawnServer(PORT, { ...target.env, ...NO_JOBS });
  try {
    for (const secret of Object.values(secrets.keys)) {
      const key = await bearer(secret, server.url);
      expect((await key.get('/v1/organizations')).status(), secret.slice(0, 8)).toBe(200);
      await key.dispose();
    }
    const revoked = await bearer(secrets.revokedKey, server.url);
    expect((await revoked.get('/v1/organizations')).status()).toBe(401);
    await revoked.dispose();
    const scim = await bearer(secrets.scimToken, server.url);
    expect((await scim.get('/scim/v2/Users')).status()).toBe(200);
    await scim.dispose();

    for (const [user, orgName] of [
      ['ada', 'Acme'],
      ['gil', 'Globex'],
    ] as const) {
      // The release's argon2 password hashes still sign in.
      const session = await sessionFor(user, server.url);
      const orgs = (await (await session.get('/v1/organizations')).json()) as { items: { id: string; name: string }[] };
      const orgId = orgs.items.find((o) => o.name === orgName)!.id;
      const verify = async () =>
        (await (await session.get(`/v1/organizations/${orgId}/audit-events/verify`)).json()) as {
          verified: number;
          firstBrokenSeq: number | null;
        };
      // The release wrote no audit events: the chain holds only what today's server wrote since (the sign-in).
      const first = await verify();
      expect(first.firstBrokenSeq).toBeNull();

      const keys = (await (await session.get(`/v1/organizations/${orgId}/api-keys`)).json()) as {
        items: { id: string; name: string }[];
      };
      const released = orgName === 'Acme' ? ['ada laptop', 'deploy pipeline'] : ['globex ingest'];
      expect(keys.items.map((k) => k.name).sort()).toEqual(released);
      const created = await session.post(`/v1/organizations/${orgId}/api-keys`, { data: { name: 'after upgrade' } });
      expect(created.status()).toBe(201);
      const revoke = await session.delete(`/v1/organizations/${orgId}/api-keys/${keys.items[0].id}`);
      expect(revoke.status()).toBe(204);

      const projects = (await (await session.get(`/v1/organizations/${orgId}/projects`)).json()) as {
        items: { id: string; name: string }[];
      };
      const project = projects.items.find((p) => p.name !== 'Staging')!;
      const silences = `/v1/organizations/${orgId}/projects/${project.id}/obs/silences`;
      const list = (await (await session.get(`${silences}?state=active`)).json()) as {
        items: { id: string; comment: string }[];
      };
      // The fixture's silence that ends in 2099 (the seed's end within a month of the fixture's making).
      const lasting = list.items.find((item) => item.comment.startsWith('Legacy batch host'))!;
      const one = await session.get(`${silences}/${lasting.id}`);
      const patched = await session.patch(`${silences}/${lasting.id}`, {
        headers: { 'If-Match': one.headers().etag, 'Idempotency-Key': `upgrade-${user}` },
        data: { comment: 'Edited after the upgrade' },
      });
      expect(patched.status(), await patched.text()).toBe(200);
      const subscriptions = `/v1/organizations/${orgId}/projects/${project.id}/subscriptions`;
      expect((await session.get(subscriptions)).status()).toBe(200);

      const verified = await verify();
      expect(verified.firstBrokenSeq).toBeNull();
      expect(verified.verified).toBeGreaterThanOrEqual(first.verified + 3);
      await session.dispose();
    }
  } finally {
    await server.stop();
  }
}

test.describe('an upgrade from the first release (0f3dff3) keeps every row and gives a verifying audit chain', () => {
  test.describe.configure({ timeout: 240_000 });

  test('embedded database: its DATA_DIR, opened by today’s server', async () => {
    test.skip(!!process.env.DATABASE_URL, 'the PostgreSQL run upgrades a PostgreSQL database');
    const target = embedded();
    try {
      await upgradeFromTheFirstRelease(target);
    } finally {
      await target.drop();
    }
  });

  test('PostgreSQL: a database of its own on the server DATABASE_URL names', async () => {
    test.skip(!process.env.DATABASE_URL, 'runs in the PostgreSQL run (DATABASE_URL)');
    const target = await postgres();
    try {
      await upgradeFromTheFirstRelease(target);
    } finally {
      await target.drop();
    }
  });
});
