/**
 * Makes one organization with one administrator who signs in with a password, for a browser test that enrols
 * and removes that person's factors (tests own their data); with a fourth argument, a member (BasicAccess) of that
 * organization instead. Runs before its server starts (PGlite: the server then holds the database) or beside it
 * (PostgreSQL). Prints `{orgId, userId, email}`.
 * usage: DATA_DIR=… (or DATABASE_URL=…) tsx e2e/support/console-user-seed.ts <email> <name> <organization> [orgId]
 */
import { closeDb, getDb } from '../../lib/db/client';
import * as t from '../../lib/db/schema';
import { hashPassword } from '../../lib/auth/password';
import { E2E } from './env';

const [email, name, orgName, joinOrgId] = process.argv.slice(2);
if (!email || !name || !orgName) throw new Error('usage: console-user-seed <email> <name> <organization>');

const db = await getDb();
const out = await db.transaction(async (tx) => {
  const [org] = joinOrgId
    ? [{ id: joinOrgId }]
    : await tx.insert(t.organizations).values({ name: orgName }).returning();
  const [user] = await tx
    .insert(t.users)
    .values({ email, name, passwordHash: await hashPassword(E2E.password) })
    .returning();
  await tx.insert(t.memberships).values({ organizationId: org.id, userId: user.id });
  await tx.insert(t.policyBindings).values({
    organizationId: org.id,
    principalType: 'user',
    principalId: user.id,
    policy: joinOrgId ? 'BasicAccess' : 'OrganizationAdmin',
  });
  return { orgId: org.id, userId: user.id, email };
});
await closeDb();
process.stdout.write(JSON.stringify(out));
