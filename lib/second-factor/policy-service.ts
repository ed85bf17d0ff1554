import { eq, sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { ApiError, notFound } from '../errors';
import type { Principal } from '../principal';
import { authCache, invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordAuditEvent } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import type { Organization } from '../orgs/schema';
import { hasSecondFactor } from './service';

// Dropped with every other authentication cache whenever the policy or anyone's factors change (epoch bump).
const refusalCache = authCache<boolean>();

/**
 * Whether the organization's "require a second factor" refuses this caller: a user (by any credential) with a
 * password and no second factor. Bots and single sign-on users (no password here) are not asked.
 */
export async function refusedForMissingSecondFactor(principal: Principal, organizationId: string): Promise<boolean> {
  if (principal.type !== 'user') return false;
  return refusalCache.through(`${principal.id}:${organizationId}`, async () => {
    const db = await getDb();
    const { rows } = await db.execute<{ refused: boolean }>(sql`
      select (o.require_two_factor
          and u.password_hash is not null
          and not exists (select 1 from user_totp f where f.user_id = u.id and f.confirmed_at is not null)
          and not exists (select 1 from passkeys p where p.user_id = u.id)) as refused
      from organizations o, users u
      where o.id = ${organizationId} and u.id = ${principal.id}`);
    return Boolean(rows[0]?.refused);
  });
}

/**
 * `PATCH /v1/organizations/{orgId}`: the policy switch. Turning it on needs the caller to have a second factor
 * (an admin cannot lock themselves out). The change, its epoch bump and `organization.updated` commit together;
 * an unchanged value writes nothing.
 */
export async function updateOrganization(
  organizationId: string,
  change: { requireTwoFactor?: boolean },
  principal: Principal,
  source: AuditSource,
): Promise<Organization> {
  const db = await getDb();
  const updated = await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(t.organizations)
      .where(eq(t.organizations.id, organizationId))
      .for('update');
    if (!current) throw notFound();
    const next = change.requireTwoFactor ?? current.requireTwoFactor;
    if (next === current.requireTwoFactor) return current;
    if (next && !(await hasSecondFactor(tx, principal.id)))
      throw new ApiError(
        'two_factor_required',
        'Add a second factor to your own account before requiring one of every member.',
      );
    const [row] = await tx
      .update(t.organizations)
      .set({ requireTwoFactor: next })
      .where(eq(t.organizations.id, organizationId))
      .returning();
    await bumpAuthEpoch(tx);
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'organization.updated',
      target: { type: 'organization', id: organizationId, name: current.name },
      changes: [{ field: 'requireTwoFactor', from: current.requireTwoFactor, to: next }],
    });
    return row;
  });
  invalidateAuthCaches();
  return { id: updated.id, name: updated.name, requireTwoFactor: updated.requireTwoFactor };
}
