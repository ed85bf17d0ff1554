/**
 * Runs before the test server starts (the server then holds the database): migrates, seeds the demo data,
 * and adds the few records no API can make on demand (an expired key, a suspended user), writing their
 * secrets to a fixtures file outside the database directory.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { closeDb, getDb } from '../../lib/db/client';
import { seedDemoData } from '../../server/demo/seed';
import * as t from '../../lib/db/schema';
import { displayPrefix, generateApiKey, sha256Hex } from '../../lib/auth/api-key-format';
import { hashPassword } from '../../lib/auth/password';
import { seedSilenceFixtures } from './silences-seed';
import { seedSecondFactorFixtures } from './second-factor-seed';
import { seedDeadLetterFixture } from './subscriptions-seed';

const out = process.argv[2];
if (!out) throw new Error('usage: prepare-db <fixtures.json>');

process.env.SEED_DEMO = '0';
const db = await getDb();
await seedDemoData(db);
await seedSilenceFixtures(db, path.join(path.dirname(out), `silences-${path.basename(out)}`));

const [acme] = await db.select().from(t.organizations).where(eq(t.organizations.name, 'Acme'));
const userId = async (email: string) => (await db.select().from(t.users).where(eq(t.users.email, email)))[0].id;
const [bot] = await db
  .select()
  .from(t.bots)
  .where(and(eq(t.bots.organizationId, acme.id), eq(t.bots.name, 'deploy-bot')));

async function key(
  ownerType: 'user' | 'bot',
  ownerId: string,
  name: string,
  extra: Partial<typeof t.apiKeys.$inferInsert> = {},
) {
  const secret = generateApiKey();
  await db.insert(t.apiKeys).values({
    organizationId: acme.id,
    name,
    prefix: displayPrefix(secret),
    secretHash: sha256Hex(secret),
    ownerType,
    ownerId,
    ...extra,
  });
  return secret;
}

// A user who is suspended, to show that a session minted for them is refused.
const [suspended] = await db
  .insert(t.users)
  .values({
    email: 'sus@acme.test',
    name: 'Sus Pended',
    status: 'suspended',
    passwordHash: await hashPassword('correct-horse-battery'),
  })
  .onConflictDoNothing()
  .returning();
if (suspended) await db.insert(t.memberships).values({ organizationId: acme.id, userId: suspended.id });
const suspendedId = suspended?.id ?? (await userId('sus@acme.test'));

// Principals the tests remove, make leave, suspend or delete, each its own, so the demo ones stay for every
// other spec file and no file depends on running before or after another.
const [globex] = await db.select().from(t.organizations).where(eq(t.organizations.name, 'Globex'));
for (const [org, email, name] of [
  [acme, 'dan@acme.test', 'Dan Removed'],
  [acme, 'eve@acme.test', 'Eve Leaving'],
  [acme, 'sam@acme.test', 'Sam Provisioned'],
  [acme, 'ray@acme.test', 'Ray Transient'],
  [globex, 'una@globex.test', 'Una Suspended'],
  // The audit log's tests (e2e/api/audit.spec.ts): removed, leaving, suspended over SCIM.
  [acme, 'ria@acme.test', 'Ria Removed'],
  [acme, 'lea@acme.test', 'Lea Leaving'],
  [acme, 'sue@acme.test', 'Sue Suspended'],
] as const) {
  const [user] = await db
    .insert(t.users)
    .values({ email, name, passwordHash: await hashPassword('correct-horse-battery') })
    .onConflictDoNothing()
    .returning();
  if (!user) continue;
  await db.insert(t.memberships).values({ organizationId: org.id, userId: user.id });
  await db
    .insert(t.policyBindings)
    .values({ organizationId: org.id, principalType: 'user', principalId: user.id, policy: 'BasicAccess' });
}
// The restricted-key sweep's owner (e2e/api/key-restrictions-sweep.spec.ts): holds nearly every permission in Acme
// (OrganizationAdmin aside, so ada stays its last administrator), so that what a narrowed key of his is refused is
// refused by the key, and what a door would let through would be his own: leaving, or his other keys revoked.
const [kai] = await db
  .insert(t.users)
  .values({ email: 'kai@acme.test', name: 'Kai Narrowed', passwordHash: await hashPassword('correct-horse-battery') })
  .onConflictDoNothing()
  .returning();
if (kai) {
  await db.insert(t.memberships).values({ organizationId: acme.id, userId: kai.id });
  await db
    .insert(t.policyBindings)
    .values(
      ['BasicAccess', 'ApiKeyAdmin', 'BotAdmin', 'MemberAdmin', 'QueuesEditor', 'SilencesEditor', 'Auditor'].map(
        (policy) => ({ organizationId: acme.id, principalType: 'user' as const, principalId: kai.id, policy }),
      ),
    );
}

// In Globex, so Acme's bot list stays exactly the demo's.
for (const name of ['ci-bot', 'retiring-bot']) {
  const [bot] = await db.insert(t.bots).values({ organizationId: globex.id, name }).onConflictDoNothing().returning();
  if (bot)
    await db
      .insert(t.policyBindings)
      .values({ organizationId: globex.id, principalType: 'bot', principalId: bot.id, policy: 'BasicAccess' });
}

// Sue belongs to a second organization too: events about a user go to every organization they are in.
// Ivy administers it (to read its log); Aud reads Acme's log with the Auditor policy alone. Once per database.
const [ivy, aud] = await db
  .insert(t.users)
  .values([
    { email: 'ivy@initech.test', name: 'Ivy Admin', passwordHash: await hashPassword('correct-horse-battery') },
    { email: 'aud@acme.test', name: 'Aud Itor', passwordHash: await hashPassword('correct-horse-battery') },
  ])
  .onConflictDoNothing()
  .returning();
if (ivy && aud) {
  const [initech] = await db.insert(t.organizations).values({ name: 'Initech' }).returning();
  await db.insert(t.memberships).values([
    { organizationId: initech.id, userId: await userId('sue@acme.test') },
    { organizationId: initech.id, userId: ivy.id },
    { organizationId: acme.id, userId: aud.id },
  ]);
  await db.insert(t.policyBindings).values([
    { organizationId: initech.id, principalType: 'user', principalId: ivy.id, policy: 'OrganizationAdmin' },
    { organizationId: acme.id, principalType: 'user', principalId: aud.id, policy: 'Auditor' },
  ]);
}
const [auditBot] = await db
  .insert(t.bots)
  .values({ organizationId: globex.id, name: 'audit-bot' })
  .onConflictDoNothing()
  .returning();
if (auditBot)
  await db
    .insert(t.policyBindings)
    .values({ organizationId: globex.id, principalType: 'bot', principalId: auditBot.id, policy: 'BasicAccess' });

// OAuth access tokens as the CLI's device login would issue them, to show what suspension does to them.
async function oauthAccessToken(email: string) {
  const token = `e2e-oauth-${randomBytes(24).toString('base64url')}`;
  await db.insert(t.oauthTokens).values({
    tokenHash: sha256Hex(token),
    kind: 'access',
    userId: await userId(email),
    grantId: randomUUID(),
    clientId: 'svc-cli',
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  return token;
}

const bob = await userId('bob@acme.test');
const fixtures = {
  suspendedUserId: suspendedId,
  keys: {
    bobExpired: await key('user', bob, 'e2e expired', {
      expiresAt: new Date(Date.now() - 60_000),
      createdAt: new Date(Date.now() - 86_400_000),
    }),
    bobRevoked: await key('user', bob, 'e2e revoked', { revokedAt: new Date(), revokedReason: 'revoked' }),
    suspendedUser: await key('user', suspendedId, 'e2e suspended owner'),
    deployBot: await key('bot', bot.id, 'e2e deploy-bot'),
  },
  secondFactor: await seedSecondFactorFixtures(db),
  deadLetters: await seedDeadLetterFixture(db),
  oauthAccess: {
    bob: await oauthAccessToken('bob@acme.test'),
    sam: await oauthAccessToken('sam@acme.test'),
    una: await oauthAccessToken('una@globex.test'),
  },
};
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(fixtures, null, 2));
await closeDb();
