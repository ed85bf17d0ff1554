import { eq, sql } from 'drizzle-orm';
import { getDb, type Db, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import { notFound } from '../errors';
import { hashPassword } from '../auth/password';
import { createOrganizationWithAdmin } from '../members/join-service';
import { userActor } from '../audit/source';
import type { AuditContext } from '../db/audit-types';
import { newLinkToken, tokenHash } from './tokens';
import type { SetupBody } from './schema';

async function anyUser(db: DbOrTx): Promise<boolean> {
  return (
    (
      await db
        .select({ one: sql<number>`1` })
        .from(t.users)
        .limit(1)
    ).length > 0
  );
}

/** Whether the console has its first user: the setup page then says so instead of showing its form. */
export async function consoleIsSetUp(): Promise<boolean> {
  return anyUser(await getDb());
}

/**
 * At every start: on a database without users, a new one-time setup token (only its hash stored) for the URL the
 * server logs; once a user exists, every setup token is void and deleted. Returns the token to log, or null.
 */
export async function issueSetupToken(db: Db): Promise<string | null> {
  if (await anyUser(db)) {
    await db.delete(t.setupTokens);
    return null;
  }
  const { token, hash } = newLinkToken();
  await db.insert(t.setupTokens).values({ tokenHash: hash });
  return token;
}

const NO_SETUP = 'No setup is waiting here: the link is unknown, or this installation already has its first user.';

/**
 * The first administrator: the user, the organization and their OrganizationAdmin binding in one transaction, with
 * `organization.created`. The installation row's primary key makes two concurrent setups serialize: the second
 * waits for the first's commit and then finds the row taken (404), on one database or across instances.
 */
export async function runSetup(input: SetupBody, context: AuditContext) {
  const passwordHash = await hashPassword(input.password);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const claimed = await tx.insert(t.installation).values({ id: 1 }).onConflictDoNothing().returning();
    if (claimed.length === 0) throw notFound(NO_SETUP);
    const [token] = await tx
      .select({ hash: t.setupTokens.tokenHash })
      .from(t.setupTokens)
      .where(eq(t.setupTokens.tokenHash, tokenHash(input.token)));
    if (!token || (await anyUser(tx))) throw notFound(NO_SETUP);
    const [user] = await tx
      .insert(t.users)
      .values({ email: input.email, name: input.name, passwordHash })
      .returning({ id: t.users.id, email: t.users.email, name: t.users.name });
    await tx.delete(t.setupTokens);
    const source = { actor: userActor(user, null), context };
    const made = await createOrganizationWithAdmin(tx, {
      name: input.organizationName,
      admin: user,
      source,
      reason: 'setup',
    });
    const organization = { id: made.id, name: made.name };
    return { user, organization };
  });
}
