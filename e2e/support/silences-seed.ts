import { writeFileSync } from 'node:fs';
import { and, asc, eq, like } from 'drizzle-orm';
import type { Db } from '../../lib/db/client';
import * as t from '../../lib/db/schema';
import { newSlug } from '../../lib/slug';

/** Comment prefix of the silences only the tests use, so tests that end or start them leave the demo ones alone. */
export const FIXTURE_PREFIX = 'e2e fixture:';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Extra silences in Acme/Production, each owned by one test that may move it to another state; ids by name go to `out`. */
export async function seedSilenceFixtures(db: Db, out: string): Promise<void> {
  const [acme] = await db.select().from(t.organizations).where(eq(t.organizations.name, 'Acme'));
  const [production] = await db
    .select()
    .from(t.projects)
    .where(and(eq(t.projects.organizationId, acme.id), eq(t.projects.name, 'Production')));
  const [ada] = await db.select().from(t.users).where(eq(t.users.email, 'ada@acme.test'));
  const now = Date.now();
  const scheduled = { startsAt: new Date(now + 10 * DAY), endsAt: new Date(now + 11 * DAY) };
  const active = { startsAt: new Date(now - HOUR), endsAt: new Date(now + 10 * DAY) };
  const fixtures: Record<string, { startsAt: Date; endsAt: Date }> = {
    'scheduled race': scheduled,
    'scheduled idempotency': scheduled,
    'scheduled edits': scheduled,
    'scheduled start now': scheduled,
    'scheduled ui': scheduled,
    'active edits': active,
    'active end now': active,
  };
  // Two test servers on one PostgreSQL database both prepare it: the second reuses the first's fixtures.
  const existing = await db
    .select()
    .from(t.silences)
    .where(and(eq(t.silences.projectId, production.id), like(t.silences.comment, `${FIXTURE_PREFIX}%`)))
    .orderBy(asc(t.silences.createdAt));
  const rows =
    existing.length > 0
      ? existing
      : await db
          .insert(t.silences)
          .values(
            Object.entries(fixtures).map(([name, window], n) => ({
              organizationId: acme.id,
              projectId: production.id,
              slug: newSlug('sil'),
              comment: `${FIXTURE_PREFIX} ${name}`,
              matchers: [{ label: 'fixture', op: '=' as const, value: name.replace(/ /g, '_') }],
              ...window,
              createdByType: 'user' as const,
              createdById: ada.id,
              updatedByType: 'user' as const,
              updatedById: ada.id,
              createdAt: new Date(now - 30 * DAY + n),
              updatedAt: new Date(now - 30 * DAY + n),
            })),
          )
          .returning();
  const ids = Object.fromEntries(Object.keys(fixtures).map((name, n) => [name, rows[n].id]));
  writeFileSync(out, JSON.stringify(ids, null, 2));
}
