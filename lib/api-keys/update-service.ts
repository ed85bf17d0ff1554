import { and, eq, isNull } from 'drizzle-orm';
import { recordAuditEvent } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import type { KeyRestrictions } from '../auth/key-scope';
import type { Principal } from '../auth/principal';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { idNotFound } from '../errors';
import type { ApiKey } from './schema';
import { checkedRestrictions, keyPolicyFor, restrictionChanges } from './restrictions';
import { apiKeyTarget, DAY_MS, toApiKey } from './service';

/**
 * `PATCH …/api-keys/{keyId}`: new restrictions, checked as on creation (with the caller as creator and the key's
 * own lifetime). The key row is locked, so of two concurrent changes each sees the other's result. A real
 * change bumps the auth epoch, so every instance evaluates the key's new restrictions on its next request.
 */
export async function updateApiKeyRestrictions(
  organizationId: string,
  keyId: string,
  by: Principal,
  input: Partial<KeyRestrictions>,
  source: AuditSource,
  now = new Date(),
): Promise<ApiKey> {
  const db = await getDb();
  const updated = await db.transaction(async (tx) => {
    const [key] = await tx
      .select()
      .from(t.apiKeys)
      .where(and(eq(t.apiKeys.id, keyId), eq(t.apiKeys.organizationId, organizationId), isNull(t.apiKeys.revokedAt)))
      .for('update');
    if (!key || (key.stopsAt && key.stopsAt <= now)) throw idNotFound('API key', keyId);
    const before: KeyRestrictions = {
      permissions: key.permissions,
      projectIds: key.projectIds,
      allowedIps: key.allowedIps,
    };
    const merged = {
      permissions: input.permissions === undefined ? before.permissions : input.permissions,
      projectIds: input.projectIds === undefined ? before.projectIds : input.projectIds,
      allowedIps: input.allowedIps === undefined ? before.allowedIps : input.allowedIps,
    };
    const lifetime = key.expiresAt ? (key.expiresAt.getTime() - key.createdAt.getTime()) / DAY_MS : null;
    const policy = await keyPolicyFor(tx, organizationId);
    // The key as it would be, whole: the caller must be able to grant all of it, in every project it names.
    const after = await checkedRestrictions(tx, organizationId, by, merged, lifetime, policy);
    const changes = restrictionChanges(before, after);
    const ownerName = await ownerNameOf(tx, key);
    if (changes.length === 0) return toApiKey({ ...key, ownerName }, now, policy);
    const [row] = await tx.update(t.apiKeys).set(after).where(eq(t.apiKeys.id, key.id)).returning();
    await bumpAuthEpoch(tx);
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'api_key.updated',
      target: apiKeyTarget(key),
      changes,
    });
    return toApiKey({ ...row, ownerName }, now, policy);
  });
  invalidateAuthCaches();
  return updated;
}

async function ownerNameOf(tx: Parameters<typeof keyPolicyFor>[0], key: typeof t.apiKeys.$inferSelect) {
  const table = key.ownerType === 'bot' ? t.bots : t.users;
  const [owner] = await tx.select({ name: table.name }).from(table).where(eq(table.id, key.ownerId));
  return owner?.name ?? '';
}
