import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { displayPrefix, generateApiKey, sha256Hex } from '../../lib/auth/api-key-format';
import { queueValues, seedDemoData, subscriptionValues } from '../demo/seed';
import { registerHooks } from '../hooks';
import { closeDb, getDb } from '../../lib/db/client';
import { insertScratchProject } from '../../lib/db/scratch-project';
import * as t from '../../lib/db/schema';

// A test's database comes with what a start registers (server/hooks.ts): the one fixture of the hooks.
registerHooks();

/** Fills `dir` with a copy of the run's migrated embedded database (server/testing/embedded-template.ts). */
const copyTemplate = (dir: string) =>
  cpSync(path.join(inject('embeddedTemplate'), 'pglite'), path.join(dir, 'pglite'), { recursive: true });

/**
 * For a unit test file: its own embedded database in a temporary folder, without demo data, opened before the file's
 * tests and removed after. It starts as a copy of the run's migrated database (server/testing/embedded-template.ts).
 */
export function withEmptyEmbeddedDatabase(name: string): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), `svc-${name}-`));
  beforeAll(async () => {
    copyTemplate(dir);
    process.env.DATA_DIR = dir;
    process.env.SEED_DEMO = '0';
    delete process.env.DATABASE_URL;
    await getDb();
  }, 120_000);
  afterAll(async () => {
    await closeDb();
    rmSync(dir, { recursive: true, force: true });
    delete process.env.SEED_DEMO;
  });
}

/**
 * For a unit test file: its own embedded database with the demo data, opened (from the run's migrated copy) before
 * the file's tests and removed after. Returns the demo's ids, filled by then: each user's by email, each project's
 * and organization's by name.
 */
export function withDemoEmbeddedDatabase(name: string): Record<string, string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), `svc-${name}-`));
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    copyTemplate(dir);
    process.env.DATA_DIR = dir;
    delete process.env.DATABASE_URL;
    const db = await openDemoDatabase();
    for (const u of await db.select().from(t.users)) ids[u.email] = u.id;
    for (const p of await db.select().from(t.projects)) ids[p.name] = p.id;
    for (const o of await db.select().from(t.organizations)) ids[o.name] = o.id;
  }, 120_000);
  afterAll(async () => {
    await closeDb();
    rmSync(dir, { recursive: true, force: true });
  });
  return ids;
}

/**
 * For a unit test file on this machine's PostgreSQL (as .ci/run uses it; PGURL_BASE overrides): a database of
 * its own, created and opened before the file's tests and dropped after. `reachable` is false when there is no
 * server, for `describe.skipIf`; `admin` is a session of the test's own, outside the app's pools.
 */
export async function scratchPostgres(label: string) {
  const base = process.env.PGURL_BASE ?? 'postgres://postgres@127.0.0.1:5432';
  const database = `svc_unit_${label}_${process.pid}`;
  const admin = new pg.Client({ connectionString: `${base}/postgres`, connectionTimeoutMillis: 2000 });
  const reachable = await admin.connect().then(
    () => true,
    () => false,
  );
  /** Registers the hooks; call it inside the `describe` that `reachable` guards. */
  const use = ({ seedDemo = false } = {}) => {
    beforeAll(async () => {
      await admin.query(`create database ${database}`);
      process.env.DATABASE_URL = `${base}/${database}`;
      process.env.SEED_DEMO = seedDemo ? '1' : '0';
      const db = await getDb();
      if (seedDemo) await seedDemoData(db);
    }, 60_000);
    afterAll(async () => {
      await closeDb();
      delete process.env.DATABASE_URL;
      delete process.env.SEED_DEMO;
      // pg-pool's end() resolves once it has asked its sessions to end, not when they have: wait for them, so
      // the drop does not cut one off mid-goodbye (which the pool would log as an error).
      for (let i = 0; i < 50; i++) {
        const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [
          database,
        ]);
        if (rows[0].n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await admin.query(`drop database if exists ${database} with (force)`);
      await admin.end();
    });
  };
  return { reachable, admin, database, use };
}

/**
 * For a unit test file whose `suite` must hold on both databases: registers it as "<what> on the embedded
 * database" (`withEmptyEmbeddedDatabase`) and as "<what> on PostgreSQL" (`scratchPostgres`, skipped where there is
 * none). `label` names the temporary folder and, with `_` for `-`, the scratch database. Await it at the top level.
 */
export async function onBothDatabases(what: string, label: string, suite: () => void): Promise<void> {
  describe(`${what} on the embedded database`, () => {
    withEmptyEmbeddedDatabase(label);
    suite();
  });
  const postgres = await scratchPostgres(label.replaceAll('-', '_'));
  describe.skipIf(!postgres.reachable)(`${what} on PostgreSQL`, () => {
    postgres.use();
    suite();
  });
}

/** The process's database with the demo data of PRODUCT.md, as start-up leaves it (server/start.ts). */
export async function openDemoDatabase() {
  const db = await getDb();
  await seedDemoData(db);
  return db;
}

/** An API key of bob@acme.test in Acme (the demo data), straight into the database: its secret and its id. */
export async function insertDemoKey(name: string, expiresAt: Date | null = null) {
  const db = await getDb();
  const [acme] = await db.select().from(t.organizations).where(eq(t.organizations.name, 'Acme'));
  const [bob] = await db.select().from(t.users).where(eq(t.users.email, 'bob@acme.test'));
  const secret = generateApiKey();
  const [row] = await db
    .insert(t.apiKeys)
    .values({
      organizationId: acme.id,
      name,
      prefix: displayPrefix(secret),
      secretHash: sha256Hex(secret),
      ownerType: 'user',
      ownerId: bob.id,
      expiresAt,
    })
    .returning();
  return { secret, id: row.id };
}

/** A new organization with one alerting project, and its audit events in seq order. */
export async function newTestProject(label: string) {
  const db = await getDb();
  const scope = await insertScratchProject(db, `${label} ${Math.random()}`);
  const events = () =>
    db
      .select()
      .from(t.auditEvents)
      .where(eq(t.auditEvents.organizationId, scope.organizationId))
      .orderBy(asc(t.auditEvents.seq));
  return { db, scope, events };
}

/** A queue in the project. */
export async function insertTestQueue(scope: { organizationId: string; projectId: string }, name = 'orders') {
  const [queue] = await (await getDb()).insert(t.queues).values(queueValues(scope, name)).returning();
  return queue;
}

/** An active subscription in the project, of a new queue unless `values` names one; `values` overrides any column. */
export async function insertTestSubscription(
  scope: { organizationId: string; projectId: string },
  values: Partial<typeof t.subscriptions.$inferInsert> = {},
) {
  const queueId = values.queueId ?? (await insertTestQueue(scope, `q-${randomUUID().slice(0, 8)}`)).id;
  const [sub] = await (
    await getDb()
  )
    .insert(t.subscriptions)
    .values(subscriptionValues({ ...scope, queueId }, values))
    .returning();
  return sub;
}
