import { and, eq, isNull } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import { displayPrefix, generateApiKey, sha256Hex } from '../auth/api-key-format';
import type { Principal } from '../auth/principal';
import { ApiError, idNotFound } from '../errors';
import { EXPIRING_SOON_DAYS, type ApiKey, type CreatedApiKey } from './schema';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordAuditEvent } from '../audit/record';
import { notifyKeyRevokedByOther } from '../notifications/key-notices';
import type { AuditEventInput, AuditSource } from '../db/audit-types';
import type { KeyPolicy, KeyRestrictions } from '../auth/key-scope';
import { checkedRestrictions, keyPolicyFor, restrictionChanges, restrictionView } from './restrictions';

export const DAY_MS = 86_400_000;

export type RevocationReason = NonNullable<(typeof t.apiKeys.$inferSelect)['revokedReason']>;
export type Owner = { type: 'user' | 'bot'; id: string };

export type KeyRow = Pick<
  typeof t.apiKeys.$inferSelect,
  | 'id'
  | 'name'
  | 'prefix'
  | 'ownerType'
  | 'ownerId'
  | 'createdAt'
  | 'expiresAt'
  | 'lastUsedAt'
  | 'rolledAt'
  | 'stopsAt'
  | 'permissions'
  | 'projectIds'
  | 'allowedIps'
> & {
  ownerName: string | null;
};

export function toApiKey(row: KeyRow, now: Date, policy: KeyPolicy | null): ApiKey {
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
    ...restrictionView(row, policy),
  };
}

/**
 * Creates a key for the caller or for a live bot of the organization. The owner's row is locked for the
 * transaction, so a concurrent removal or bot deletion waits and then revokes this key too.
 */
export async function createApiKey(
  organizationId: string,
  creator: Principal,
  input: { name: string; expiresInDays?: number | null; botId?: string } & Partial<KeyRestrictions>,
  source: AuditSource,
  now = new Date(),
): Promise<CreatedApiKey> {
  const db = await getDb();
  const secret = generateApiKey();
  return db.transaction(async (tx) => {
    // 400 before the bot's 404, as the order of checks says.
    const policy = await keyPolicyFor(tx, organizationId);
    const restrictions = await checkedRestrictions(
      tx,
      organizationId,
      creator,
      input,
      input.expiresInDays ?? null,
      policy,
    );
    let owner: Owner & { name: string };
    if (input.botId) {
      const [bot] = await tx
        .select({ id: t.bots.id, name: t.bots.name })
        .from(t.bots)
        .where(and(eq(t.bots.id, input.botId), eq(t.bots.organizationId, organizationId), isNull(t.bots.deletedAt)))
        .for('update');
      if (!bot) throw idNotFound('bot', input.botId);
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
        ...restrictions,
      })
      .returning();
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'api_key.created',
      target: apiKeyTarget(row),
      reason: owner.type === 'bot' ? `for bot ${owner.name}` : null,
      changes: restrictionChanges(null, restrictions),
    });
    return { apiKey: toApiKey({ ...row, ownerName: owner.name }, now, policy), secret };
  });
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
export async function revokeApiKey(
  organizationId: string,
  keyId: string,
  by: Principal,
  source: AuditSource,
): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const revoked = await tx
      .update(t.apiKeys)
      .set({ revokedAt: new Date(), revokedReason: 'revoked', revokedById: by.id })
      .where(and(eq(t.apiKeys.id, keyId), eq(t.apiKeys.organizationId, organizationId), isNull(t.apiKeys.revokedAt)))
      .returning(revokedKeyColumns);
    if (revoked.length === 0) throw idNotFound('API key', keyId);
    await bumpAuthEpoch(tx);
    await notifyKeyRevokedByOther(tx, revoked[0], by);
    await recordAuditEvent(tx, keyRevokedEvent(revoked[0], 'revoked', source));
  });
  // The very next request with this key must be refused, even where it was cached.
  invalidateAuthCaches();
}

const revokedKeyColumns = {
  id: t.apiKeys.id,
  organizationId: t.apiKeys.organizationId,
  name: t.apiKeys.name,
  prefix: t.apiKeys.prefix,
  ownerType: t.apiKeys.ownerType,
  ownerId: t.apiKeys.ownerId,
};
export type RevokedKey = {
  id: string;
  organizationId: string;
  name: string;
  prefix: string;
  ownerType: 'user' | 'bot';
  ownerId: string;
};

/** An API key as the target of an event: its name and display prefix, never its secret. */
export function apiKeyTarget(key: { id: string; name: string; prefix: string }) {
  return { type: 'api_key', id: key.id, name: `${key.name} (${key.prefix}…)` };
}

/** The `api_key.revoked` event of one key, with the cause as its reason. */
export function keyRevokedEvent(key: RevokedKey, reason: RevocationReason, source: AuditSource): AuditEventInput {
  return {
    ...source,
    organizationId: key.organizationId,
    action: 'api_key.revoked',
    target: apiKeyTarget(key),
    reason,
  };
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
): Promise<RevokedKey[]> {
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
    .returning(revokedKeyColumns);
  return revoked;
}
