/**
 * The principals of the second-factor specs (e2e/api/second-factor*.spec.ts), in organizations of their own, so
 * a policy switched on or a factor enrolled never reaches another spec's users. Once per database.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../lib/db/client';
import * as t from '../../lib/db/schema';
import { displayPrefix, generateApiKey, sha256Hex } from '../../lib/auth/api-key-format';
import { hashPassword } from '../../lib/auth/password';

export type SecondFactorFixtures = {
  /** Umbrella: `uma` (OrganizationAdmin) runs every guarded operation; `tia` and `tom` enrol factors. */
  umbrella: string;
  /** Hooli: `hal` (OrganizationAdmin) switches the policy; `mo` (BasicAccess) has none; `sso` has no password. */
  hooli: string;
  /** Hooli's one project, alerting on: its Alertmanager API is one of the organization's routes. */
  hooliProject: string;
  moKey: string;
  moOAuth: string;
};

const PEOPLE = [
  ['umbrella', 'uma@umbrella.test', 'Uma Admin', 'OrganizationAdmin'],
  ['umbrella', 'tia@umbrella.test', 'Tia Totp', 'BasicAccess'],
  ['umbrella', 'tom@umbrella.test', 'Tom Twice', 'BasicAccess'],
  ['umbrella', 'rex@umbrella.test', 'Rex Racer', 'BasicAccess'],
  ['hooli', 'hal@hooli.test', 'Hal Admin', 'OrganizationAdmin'],
  ['hooli', 'mo@hooli.test', 'Mo Member', 'BasicAccess'],
] as const;

export async function seedSecondFactorFixtures(db: Db): Promise<SecondFactorFixtures> {
  // On PostgreSQL the main and the limited server prepare one database at once: one of them seeds.
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(727276)`);
    return seed(tx);
  });
}

async function seed(db: Tx): Promise<SecondFactorFixtures> {
  const existing = await db.select().from(t.organizations).where(eq(t.organizations.name, 'Umbrella'));
  const orgs = existing.length
    ? {
        umbrella: existing[0].id,
        hooli: (await db.select().from(t.organizations).where(eq(t.organizations.name, 'Hooli')))[0].id,
      }
    : {
        umbrella: (await db.insert(t.organizations).values({ name: 'Umbrella' }).returning())[0].id,
        hooli: (await db.insert(t.organizations).values({ name: 'Hooli' }).returning())[0].id,
      };
  const passwordHash = await hashPassword('correct-horse-battery');
  const ids: Record<string, string> = {};
  for (const [org, email, name, policy] of PEOPLE) {
    const [user] = await db.insert(t.users).values({ email, name, passwordHash }).onConflictDoNothing().returning();
    if (user) {
      await db.insert(t.memberships).values({ organizationId: orgs[org], userId: user.id });
      await db
        .insert(t.policyBindings)
        .values({ organizationId: orgs[org], principalType: 'user', principalId: user.id, policy });
    }
    ids[email] = user?.id ?? (await db.select().from(t.users).where(eq(t.users.email, email)))[0].id;
  }
  if (existing.length === 0) {
    const [bot] = await db.insert(t.bots).values({ organizationId: orgs.umbrella, name: 'umbrella-bot' }).returning();
    await db
      .insert(t.policyBindings)
      .values({ organizationId: orgs.umbrella, principalType: 'bot', principalId: bot.id, policy: 'BasicAccess' });
  }
  // A single sign-on user: no password here, so the policy does not apply to them.
  const [sso] = await db
    .insert(t.users)
    .values({ email: 'sso@hooli.test', name: 'Sso User' })
    .onConflictDoNothing()
    .returning();
  if (sso) {
    await db.insert(t.memberships).values({ organizationId: orgs.hooli, userId: sso.id });
    await db
      .insert(t.policyBindings)
      .values({ organizationId: orgs.hooli, principalType: 'user', principalId: sso.id, policy: 'BasicAccess' });
  }
  const hooliProject =
    (await db.select().from(t.projects).where(eq(t.projects.organizationId, orgs.hooli)))[0]?.id ??
    (
      await db
        .insert(t.projects)
        .values({ organizationId: orgs.hooli, name: 'Hooli Alerts', alertingEnabled: true })
        .returning()
    )[0].id;
  const moKey = generateApiKey();
  await db.insert(t.apiKeys).values({
    organizationId: orgs.hooli,
    name: 'mo e2e',
    prefix: displayPrefix(moKey),
    secretHash: sha256Hex(moKey),
    ownerType: 'user',
    ownerId: ids['mo@hooli.test'],
  });
  const moOAuth = `e2e-oauth-${randomBytes(24).toString('base64url')}`;
  await db.insert(t.oauthTokens).values({
    tokenHash: sha256Hex(moOAuth),
    kind: 'access',
    userId: ids['mo@hooli.test'],
    grantId: randomUUID(),
    clientId: 'svc-cli',
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  return { ...orgs, hooliProject, moKey, moOAuth };
}
