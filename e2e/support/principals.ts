import { randomBytes, randomUUID } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as t from '../../lib/db/schema';
import { displayPrefix, generateApiKey, sha256Hex } from '../../lib/auth/api-key-format';

export type SeededMember = { userId: string; keyId: string; key: string; oauth: string };
export type SeededBot = { botId: string; keyId: string; key: string };

/** Writes members and bots straight into a PostgreSQL database, many at once, for tests that destroy one per trial. */
export function memberSeeder(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const db = drizzle({ client: pool, schema: t });
  const insertKey = async (organizationId: string, label: string, ownerType: 'user' | 'bot', ownerId: string) => {
    const key = generateApiKey();
    const [row] = await db
      .insert(t.apiKeys)
      .values({
        organizationId,
        name: label,
        prefix: displayPrefix(key),
        secretHash: sha256Hex(key),
        ownerType,
        ownerId,
      })
      .returning({ id: t.apiKeys.id });
    return { keyId: row.id, key };
  };
  return {
    /** A member of the organization with BasicAccess, an API key in it and an OAuth access token. */
    async member(organizationId: string, label: string): Promise<SeededMember> {
      const [user] = await db
        .insert(t.users)
        .values({ email: `${label}-${randomUUID()}@instances.test`, name: label })
        .returning({ id: t.users.id });
      await db.insert(t.memberships).values({ organizationId, userId: user.id });
      await db
        .insert(t.policyBindings)
        .values({ organizationId, principalType: 'user', principalId: user.id, policy: 'BasicAccess' });
      const { keyId, key } = await insertKey(organizationId, label, 'user', user.id);
      const oauth = `e2e-oauth-${randomBytes(24).toString('base64url')}`;
      await db.insert(t.oauthTokens).values({
        tokenHash: sha256Hex(oauth),
        kind: 'access',
        userId: user.id,
        grantId: randomUUID(),
        clientId: 'svc-cli',
        expiresAt: new Date(Date.now() + 86_400_000),
      });
      return { userId: user.id, keyId, key, oauth };
    },
    /** A bot of the organization with BasicAccess and an API key of its own. */
    async bot(organizationId: string, label: string): Promise<SeededBot> {
      const [bot] = await db
        .insert(t.bots)
        .values({ organizationId, name: `${label}-${randomUUID()}` })
        .returning({ id: t.bots.id });
      await db
        .insert(t.policyBindings)
        .values({ organizationId, principalType: 'bot', principalId: bot.id, policy: 'BasicAccess' });
      return { botId: bot.id, ...(await insertKey(organizationId, label, 'bot', bot.id)) };
    },
    close: () => pool.end(),
  };
}
