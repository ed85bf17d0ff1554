import { and, desc, eq, gt, isNull, lte, or, sql } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import { displayPrefix, generateApiKey, sha256Hex } from '../auth/api-key-format';
import type { Principal } from '../auth/principal';
import { ApiError, notFound } from '../http/errors';
import { afterCursor, toPage, type Page, type PageQuery } from '../http/pagination';
import { EXPIRING_SOON_DAYS, type ApiKey, type CreatedApiKey } from './schema';
import { invalidateAuthCaches } from '../auth/cache';

export const DAY_MS = 86_400_000;

export type RevocationReason = NonNullable<(typeof t.apiKeys.$inferSelect)['revokedReason']>;
export type Owner = { type: 'user' | 'bot'; id: string };

export type KeyRow = Pick<
  typeof t.apiKeys.$inferSelect,
  'id' | 'name' | 'prefix' | 'ownerType' | 'ownerId' | 'createdAt' | 'expiresAt' | 'lastUsedAt' | 'rolledAt' | 'stopsAt'
> & {
  ownerName: string | null;
};

export function toApiKey(row: KeyRow, now: Date): ApiKey {
  const expiresIn = row.expiresAt ? row.expiresAt.getTime() - now.getTime() : null;
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    owner: { type: row.ownerType, id: row.ownerId, name: row.ownerName ?? '' },
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expired: expiresIn !== null && expiresIn <= 0,
    expiringSoon: expiresIn !== null && expiresIn > 0 && expiresIn <= EXPIRING_SOON_DAYS * DAY_MS,
    rolledAt: row.rolledAt?.toISOString() ?? null,
    stopsAt: row.stopsAt?.toISOString() ?? null,
  };
}

/**
 * Creates a key for the caller or for a live bot of the organization. The owner's row is locked for the
 * transaction, so a concurrent removal or bot deletion waits and then revokes this key too.
 */
export async function createApiKey(
  organizationId: string,
  creator: Principal,
  input: { name: string; expiresInDays?: number | null; botId?: string },
  now = new Date(),
): Promise<CreatedApiKey> {
  const db = await getDb();
  const secret = generateApiKey();
  return db.transaction(async (tx) => {
    let owner: Owner & { name: string };
    if (input.botId) {
      const [bot] = await tx
        .select({ id: t.bots.id, name: t.bots.name })
        .from(t.bots)
        .where(and(eq(t.bots.id, input.botId), eq(t.bots.organizationId, organizationId), isNull(t.bots.deletedAt)))
        .for('update');
      if (!bot) throw notFound('No such bot in this organization.');
      owner = { type: 'bot', id: bot.id, name: bot.name };
    } else {
      const [member] = await tx
        .select({ userId: t.memberships.userId })
        .from(t.memberships)
        .where(and(eq(t.memberships.organizationId, organizationId), eq(t.memberships.userId, creator.id)))
        .for('update');
      if (!member || creator.type !== 'user') throw new ApiError('access_denied');
      owner = { type: 'user', id: creator.id, name: creator.name };
    }
    const [row] = await tx
      .insert(t.apiKeys)
      .values({
        organizationId,
        name: input.name,
        prefix: displayPrefix(secret),
        secretHash: sha256Hex(secret),
        ownerType: owner.type,
        ownerId: owner.id,
        createdByUserId: creator.type === 'user' ? creator.id : null,
        createdAt: now,
        expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * DAY_MS) : null,
      })
      .returning();
    return { apiKey: toApiKey({ ...row, ownerName: owner.name }, now), secret };
  });
}

/**
 * Unrevoked keys of the organization, newest first; `owner` narrows to one principal's keys, `expiring`
 * to keys expiring within 7 days. A rolled key past its `stopsAt` is gone even before housekeeping revokes it.
 */
export async function listApiKeys(
  organizationId: string,
  owner: Owner | null,
  page: PageQuery & { expiring?: 'soon' },
  now = new Date(),
): Promise<Page<ApiKey>> {
  const db = await getDb();
  // The page first, straight off the (organization, createdAt desc, id desc) index, and owner names for
  // that page only: joining before the LIMIT made PostgreSQL sort every key of the organization.
  const keys = db
    .select()
    .from(t.apiKeys)
    .where(
      and(
        eq(t.apiKeys.organizationId, organizationId),
        isNull(t.apiKeys.revokedAt),
        owner ? and(eq(t.apiKeys.ownerType, owner.type), eq(t.apiKeys.ownerId, owner.id)) : undefined,
        or(isNull(t.apiKeys.stopsAt), gt(t.apiKeys.stopsAt, now)),
        page.expiring === 'soon'
          ? and(
              gt(t.apiKeys.expiresAt, now),
              lte(t.apiKeys.expiresAt, new Date(now.getTime() + EXPIRING_SOON_DAYS * DAY_MS)),
            )
          : undefined,
        afterCursor(page.cursor, t.apiKeys.createdAt, t.apiKeys.id, 'desc'),
      ),
    )
    .orderBy(desc(t.apiKeys.createdAt), desc(t.apiKeys.id))
    .limit(page.limit + 1)
    .as('k');
  const rows = await db
    .select({
      id: keys.id,
      name: keys.name,
      prefix: keys.prefix,
      ownerType: keys.ownerType,
      ownerId: keys.ownerId,
      createdAt: keys.createdAt,
      expiresAt: keys.expiresAt,
      lastUsedAt: keys.lastUsedAt,
      rolledAt: keys.rolledAt,
      stopsAt: keys.stopsAt,
      ownerName: sql<string | null>`coalesce(${t.users.name}, ${t.bots.name})`,
    })
    .from(keys)
    .leftJoin(t.users, and(eq(keys.ownerType, 'user'), eq(t.users.id, keys.ownerId)))
    .leftJoin(t.bots, and(eq(keys.ownerType, 'bot'), eq(t.bots.id, keys.ownerId)))
    .orderBy(desc(keys.createdAt), desc(keys.id));
  return toPage(
    rows,
    page.limit,
    (r) => r.createdAt,
    (r) => toApiKey(r, now),
  );
}

/** The owner of an unrevoked key of the organization, or null when there is none to revoke. */
export async function findApiKeyOwner(organizationId: string, keyId: string): Promise<Owner | null> {
  const db = await getDb();
  const [row] = await db
    .select({ type: t.apiKeys.ownerType, id: t.apiKeys.ownerId })
    .from(t.apiKeys)
    .where(and(eq(t.apiKeys.id, keyId), eq(t.apiKeys.organizationId, organizationId), isNull(t.apiKeys.revokedAt)));
  return row ?? null;
}

/** Revokes one key; 404 when it was revoked meanwhile, so two concurrent revokes cannot both succeed. */
export async function revokeApiKey(organizationId: string, keyId: string, by: Principal): Promise<void> {
  const db = await getDb();
  const revoked = await db
    .update(t.apiKeys)
    .set({ revokedAt: new Date(), revokedReason: 'revoked', revokedById: by.id })
    .where(and(eq(t.apiKeys.id, keyId), eq(t.apiKeys.organizationId, organizationId), isNull(t.apiKeys.revokedAt)))
    .returning({ id: t.apiKeys.id });
  if (revoked.length === 0) throw notFound('No such API key.');
  // The very next request with this key must be refused, even where it was cached.
  invalidateAuthCaches();
}

/**
 * Revokes every live key of an owner, inside the caller's transaction (the cause of the revocation).
 * Without an organization, every key of the owner anywhere (a suspended user).
 */
export async function revokeKeysOf(
  tx: DbOrTx,
  owner: Owner,
  reason: RevocationReason,
  { organizationId, byId = null }: { organizationId?: string; byId?: string | null } = {},
): Promise<number> {
  const revoked = await tx
    .update(t.apiKeys)
    .set({ revokedAt: new Date(), revokedReason: reason, revokedById: byId })
    .where(
      and(
        eq(t.apiKeys.ownerType, owner.type),
        eq(t.apiKeys.ownerId, owner.id),
        organizationId ? eq(t.apiKeys.organizationId, organizationId) : undefined,
        isNull(t.apiKeys.revokedAt),
      ),
    )
    .returning({ id: t.apiKeys.id });
  return revoked.length;
}
