import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { subscriptionValues } from './seed';
import { closeDb, getDb } from './client';
import * as t from './schema';

/**
 * For a unit test file: its own embedded database in a temporary folder, without demo data, opened and
 * migrated once before the file's tests (the slow part, under the hook's longer timeout) and removed after.
 */
export function withEmptyEmbeddedDatabase(name: string): void {
  const dir = mkdtempSync(path.join(os.tmpdir(), `svc-${name}-`));
  beforeAll(async () => {
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

/** A new organization with one alerting project, and its audit events in seq order. */
export async function newTestProject(label: string) {
  const db = await getDb();
  const [org] = await db
    .insert(t.organizations)
    .values({ name: `${label} ${Math.random()}` })
    .returning();
  const [project] = await db
    .insert(t.projects)
    .values({ organizationId: org.id, name: 'Production', alertingEnabled: true })
    .returning();
  const scope = { organizationId: org.id, projectId: project.id };
  const events = () =>
    db.select().from(t.auditEvents).where(eq(t.auditEvents.organizationId, org.id)).orderBy(asc(t.auditEvents.seq));
  return { db, scope, events };
}

/** An active subscription in the project; `values` overrides any column. */
export async function insertTestSubscription(
  scope: { organizationId: string; projectId: string },
  values: Partial<typeof t.subscriptions.$inferInsert> = {},
) {
  const [sub] = await (await getDb()).insert(t.subscriptions).values(subscriptionValues(scope, values)).returning();
  return sub;
}
