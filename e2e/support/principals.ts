import { randomBytes, randomUUID } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as t from '../../lib/db/schema';
import { displayPrefix, generateApiKey, sha256Hex } from '../../lib/auth/api-key-format';

export type SeededMember = { userId: string; keyId: string; key: string; oauth: string };

/** Writes members straight into a PostgreSQL database, many at once, for tests that destroy one per trial. */
export function memberSeeder(url: string) {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const db = drizzle({ client: pool, schema: t });
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
      const key = generateApiKey();
      const [row] = await db
        .insert(t.apiKeys)
        .values({
          organizationId,
          name: label,
          prefix: displayPrefix(key),
          secretHash: sha256Hex(key),
          ownerType: 'user',
          ownerId: user.id,
        })
        .returning({ id: t.apiKeys.id });
      const oauth = `e2e-oauth-${randomBytes(24).toString('base64url')}`;
      await db.insert(t.oauthTokens).values({
        tokenHash: sha256Hex(oauth),
        kind: 'access',
        userId: user.id,
        grantId: randomUUID(),
        clientId: 'svc-cli',
        expiresAt: new Date(Date.now() + 86_400_000),
      });
      return { userId: user.id, keyId: row.id, key, oauth };
    },
    close: () => pool.end(),
  };
}
