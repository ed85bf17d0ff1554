import { and, eq, isNull, lte } from 'drizzle-orm';
import { recordAuditEvent, recordAuditEvents } from '../audit/record';
import { SYSTEM_ACTOR } from '../audit/source';
import type { AuditSource } from '../db/audit-types';
import { displayPrefix, generateApiKey, sha256Hex } from '../auth/api-key-format';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { getDb, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import { ApiError, idNotFound, invalidRequest } from '../errors';
import { keyPolicyIssues } from '../auth/key-policy';
import { keyPolicyFor, restrictionChanges } from './restrictions';
import type { Principal } from '../auth/principal';
import type { RolledApiKey } from './schema';
import { DAY_MS, toApiKey } from './service';

const apiKeyTarget = (key: { id: string; name: string }) => ({ type: 'api_key', id: key.id, name: key.name });

/** The live owner of a key, locked like a creation locks it, so a racing removal also revokes the new key. */
async function lockOwner(tx: DbOrTx, key: typeof t.apiKeys.$inferSelect): Promise<string> {
  if (key.ownerType === 'bot') {
    const [bot] = await tx
      .select({ name: t.bots.name })
      .from(t.bots)
      .where(and(eq(t.bots.id, key.ownerId), eq(t.bots.organizationId, key.organizationId), isNull(t.bots.deletedAt)))
      .for('update');
    if (!bot) throw idNotFound('API key', key.id);
    return bot.name;
  }
  const [member] = await tx
    .select({ name: t.users.name })
    .from(t.memberships)
    .innerJoin(t.users, eq(t.users.id, t.memberships.userId))
    .where(and(eq(t.memberships.organizationId, key.organizationId), eq(t.memberships.userId, key.ownerId)))
    .for('update', { of: t.memberships });
  if (!member) throw idNotFound('API key', key.id);
  return member.name;
}

/**
 * Replaces a key with a new one of the same name, owner and lifetime; the old one works until now + grace
 * (grace 0: revoked at once, reason `rolled`). The old row is locked, so of two concurrent rolls one wins
 * and the other finds it rolled (409) or revoked (404). Events: `api_key.rolled` on the old key,
 * `api_key.created` for the new one, and `api_key.revoked` (reason `rolled`) when the grace is 0.
 */
export async function rollApiKey(
  organizationId: string,
  keyId: string,
  by: Principal,
  graceSeconds: number,
  source: AuditSource,
  now = new Date(),
): Promise<RolledApiKey> {
  const db = await getDb();
  const secret = generateApiKey();
  const rolled = await db.transaction(async (tx) => {
    const [old] = await tx
      .select()
      .from(t.apiKeys)
      .where(and(eq(t.apiKeys.id, keyId), eq(t.apiKeys.organizationId, organizationId), isNull(t.apiKeys.revokedAt)))
      .for('update');
    if (!old || (old.stopsAt && old.stopsAt <= now)) throw idNotFound('API key', keyId);
    if (old.rolledAt) throw new ApiError('api_key_already_rolled');
    if (old.expiresAt && old.expiresAt <= now) throw new ApiError('api_key_expired');
    const ownerName = await lockOwner(tx, old);
    const lifetime = old.expiresAt ? old.expiresAt.getTime() - old.createdAt.getTime() : null;
    // The new key keeps the restrictions, and must keep the organization's policy as a new key would.
    const restrictions = { permissions: old.permissions, projectIds: old.projectIds, allowedIps: old.allowedIps };
    const policy = await keyPolicyFor(tx, organizationId);
    const issues = keyPolicyIssues(
      { ...restrictions, lifetimeDays: lifetime === null ? null : lifetime / DAY_MS },
      policy,
    );
    if (issues.length > 0)
      throw invalidRequest(issues, "This key breaks the organization's key policy; create a new key that keeps it.");
    const [fresh] = await tx
      .insert(t.apiKeys)
      .values({
        organizationId,
        name: old.name,
        prefix: displayPrefix(secret),
        secretHash: sha256Hex(secret),
        ownerType: old.ownerType,
        ownerId: old.ownerId,
        createdByUserId: by.type === 'user' ? by.id : null,
        createdAt: now,
        expiresAt: lifetime === null ? null : new Date(now.getTime() + lifetime),
        ...restrictions,
      })
      .returning();
    const stopsAt = new Date(now.getTime() + graceSeconds * 1000);
    const revokeNow = graceSeconds === 0;
    const [previous] = await tx
      .update(t.apiKeys)
      .set({
        rolledAt: now,
        stopsAt,
        ...(revokeNow ? { revokedAt: now, revokedReason: 'rolled' as const, revokedById: by.id } : {}),
      })
      .where(eq(t.apiKeys.id, old.id))
      .returning();
    // Cached lookups of the old key do not know its stopsAt: every instance drops them, with this commit.
    await bumpAuthEpoch(tx);
    const event = { organizationId, ...source };
    await recordAuditEvent(
      tx,
      {
        ...event,
        action: 'api_key.rolled',
        target: apiKeyTarget(old),
        changes: [
          { field: 'stopsAt', from: null, to: stopsAt.toISOString() },
          { field: 'replacedBy', from: null, to: `${fresh.prefix}…` },
          ...restrictionChanges(null, restrictions),
        ],
      },
      now,
    );
    await recordAuditEvent(
      tx,
      {
        ...event,
        action: 'api_key.created',
        target: apiKeyTarget(fresh),
        reason: 'rolled',
        changes: restrictionChanges(null, restrictions),
      },
      now,
    );
    if (revokeNow)
      await recordAuditEvent(
        tx,
        { ...event, action: 'api_key.revoked', target: apiKeyTarget(old), reason: 'rolled' },
        now,
      );
    return {
      apiKey: toApiKey({ ...fresh, ownerName }, now, policy),
      secret,
      previous: toApiKey({ ...previous, ownerName }, now, policy),
    };
  });
  invalidateAuthCaches();
  return rolled;
}

/**
 * Housekeeping: rolled keys whose grace has ended become revoked (reason `roll_grace_ended`, by the system).
 * Authentication already refuses them from `stopsAt` on; this records it. The conditional UPDATE lets only
 * one instance revoke each key.
 */
export async function endRollGraces(now = new Date()): Promise<number> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const ended = await tx
      .update(t.apiKeys)
      .set({ revokedAt: now, revokedReason: 'roll_grace_ended' })
      .where(and(isNull(t.apiKeys.revokedAt), lte(t.apiKeys.stopsAt, now)))
      .returning({ id: t.apiKeys.id, name: t.apiKeys.name, organizationId: t.apiKeys.organizationId });
    const context = { requestId: null, ip: null, userAgent: null };
    await recordAuditEvents(
      tx,
      ended.map((key) => ({
        organizationId: key.organizationId,
        action: 'api_key.revoked' as const,
        actor: SYSTEM_ACTOR,
        context,
        target: apiKeyTarget(key),
        reason: 'roll_grace_ended',
      })),
      now,
    );
    return ended.length;
  });
}
