import { randomBytes } from 'node:crypto';
import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { sha256Hex } from '../auth/api-key-format';
import { keyRevokedEvent, revokeKeysOf } from '../api-keys/service';
import { organizationsOfUser, recordAuditEvent, recordAuditEvents } from '../audit/record';
import type { AuditEventInput, AuditSource } from '../db/audit-types';
import type { ScimUserRow } from './resource';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';

const TOKEN_PREFIX = 'scim_';

/**
 * Issues the organization's SCIM bearer token, replacing any earlier one (an identity provider holds one).
 * Only its SHA-256 is stored; the plaintext is returned once.
 */
export async function createScimToken(organizationId: string, createdByUserId: string | null, source: AuditSource) {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  const db = await getDb();
  return db.transaction(async (tx) => {
    const now = new Date();
    await tx
      .update(t.scimTokens)
      .set({ revokedAt: now })
      .where(and(eq(t.scimTokens.organizationId, organizationId), isNull(t.scimTokens.revokedAt)));
    const [row] = await tx
      .insert(t.scimTokens)
      .values({
        organizationId,
        tokenHash: sha256Hex(token),
        prefix: token.slice(0, TOKEN_PREFIX.length + 4),
        createdByUserId,
        createdAt: now,
      })
      .returning();
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'scim_token.created',
      target: { type: 'scim_token', id: row.id, name: `${row.prefix}…` },
    });
    return { id: row.id, prefix: row.prefix, createdAt: row.createdAt.toISOString(), token };
  });
}

/** The organization a SCIM bearer token acts for, or null. */
export async function organizationForScimToken(
  token: string,
): Promise<{ organizationId: string; tokenId: string; prefix: string } | null> {
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const db = await getDb();
  const [row] = await db
    .select({ organizationId: t.scimTokens.organizationId, tokenId: t.scimTokens.id, prefix: t.scimTokens.prefix })
    .from(t.scimTokens)
    .where(and(eq(t.scimTokens.tokenHash, sha256Hex(token)), isNull(t.scimTokens.revokedAt)))
    .limit(1);
  return row ?? null;
}

/** The columns a SCIM User is made of (`toScimUser`). */
export const scimUserColumns = {
  id: t.users.id,
  email: t.users.email,
  name: t.users.name,
  status: t.users.status,
  scimExternalId: t.users.scimExternalId,
  createdAt: t.users.createdAt,
  updatedAt: t.users.updatedAt,
};

/** Attributes a SCIM `eq` filter may name (lower-cased: SCIM attribute names are case-insensitive). */
export const SCIM_FILTER_ATTRIBUTES = ['username', 'externalid', 'id'] as const;
export type ScimEqFilter = { attribute: (typeof SCIM_FILTER_ATTRIBUTES)[number]; value: string };

function filterCondition(filter: ScimEqFilter): SQL {
  // userName compares case-insensitively (RFC 7643 §4.1.1: caseExact false); ids and externalId exactly.
  if (filter.attribute === 'username') return sql`lower(${t.users.email}) = ${filter.value.toLowerCase()}`;
  if (filter.attribute === 'externalid') return eq(t.users.scimExternalId, filter.value);
  return sql`${t.users.id}::text = ${filter.value.toLowerCase()}`;
}

/** Members of the organization (the only users a token sees), optionally narrowed by one `eq` filter. */
export async function listScimUsers(
  organizationId: string,
  filter: ScimEqFilter | undefined,
  { offset, limit }: { offset: number; limit: number },
): Promise<{ total: number; rows: ScimUserRow[] }> {
  const db = await getDb();
  const scope = and(eq(t.memberships.organizationId, organizationId), filter ? filterCondition(filter) : undefined);
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(t.memberships)
    .innerJoin(t.users, eq(t.users.id, t.memberships.userId))
    .where(scope);
  const rows = await db
    .select(scimUserColumns)
    .from(t.memberships)
    .innerJoin(t.users, eq(t.users.id, t.memberships.userId))
    .where(scope)
    .orderBy(asc(t.memberships.joinedAt), asc(t.users.id))
    .offset(offset)
    .limit(limit);
  return { total, rows };
}

export async function findScimUser(organizationId: string, userId: string): Promise<ScimUserRow | null> {
  const { rows } = await listScimUsers(organizationId, { attribute: 'id', value: userId }, { offset: 0, limit: 1 });
  return rows[0] ?? null;
}

/**
 * Applies what an identity provider sent. Suspension, in one transaction: status, a session version bump
 * (every session ends), and every API key and OAuth token of the user revoked. Reactivation restores nothing.
 * A change of status is audited in every organization the user belongs to, each revoked key in its own.
 */
export async function updateScimUser(
  userId: string,
  change: { active?: boolean; externalId?: string | null },
  source: AuditSource,
): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [user] = await tx
      .select({ status: t.users.status, name: t.users.name, email: t.users.email })
      .from(t.users)
      .where(eq(t.users.id, userId))
      .for('update');
    if (!user) return;
    const now = new Date();
    await tx
      .update(t.users)
      .set({
        updatedAt: now,
        ...(change.externalId !== undefined ? { scimExternalId: change.externalId } : {}),
        ...(change.active !== undefined
          ? { status: change.active ? ('active' as const) : ('suspended' as const) }
          : {}),
        // Ends every session on their next request; only on the move from active, so a repeat changes nothing.
        ...(change.active === false && user.status === 'active'
          ? { sessionVersion: sql`${t.users.sessionVersion} + 1` }
          : {}),
      })
      .where(eq(t.users.id, userId));
    const events: AuditEventInput[] = [];
    if (change.active === false) {
      const revoked = await revokeKeysOf(tx, { type: 'user', id: userId }, 'scim_suspended');
      events.push(...revoked.map((key) => keyRevokedEvent(key, 'scim_suspended', source)));
      await tx
        .update(t.oauthTokens)
        .set({ revokedAt: now })
        .where(and(eq(t.oauthTokens.userId, userId), isNull(t.oauthTokens.revokedAt)));
    }
    await bumpAuthEpoch(tx);
    const status = change.active === undefined ? user.status : change.active ? 'active' : 'suspended';
    if (status !== user.status) {
      const target = { type: 'user', id: userId, name: `${user.name} <${user.email}>` };
      const action = status === 'active' ? 'user.reactivated' : 'user.suspended';
      for (const organizationId of await organizationsOfUser(tx, userId))
        events.push({ ...source, organizationId, action, target });
    }
    await recordAuditEvents(tx, events);
  });
  // Suspension ends sessions, keys and tokens now; reactivation lets sessions (not keys) work again now.
  invalidateAuthCaches();
}
