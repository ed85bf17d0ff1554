import { eq, sql } from 'drizzle-orm';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { ApiError, notFound } from '../errors';
import type { Principal } from '../auth/principal';
import { authCache, invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordAuditEvent } from '../audit/record';
import type { AuditChange, AuditSource } from '../db/audit-types';
import { canonicalKeyPolicy } from '../auth/key-policy';
import { toOrganization, type Organization, type UpdateOrganizationBody } from '../orgs/schema';
import { isDeepStrictEqual } from 'node:util';
import { hasSecondFactor } from './service';
import { queryRows } from '../db/statement';

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
    const rows = await queryRows<{ refused: boolean }>(
      db,
      sql`
      select (o.require_two_factor
          and u.password_hash is not null
          and not exists (select 1 from user_totp f where f.user_id = u.id and f.confirmed_at is not null)
          and not exists (select 1 from passkeys p where p.user_id = u.id)) as refused
      from organizations o, users u
      where o.id = ${organizationId} and u.id = ${principal.id}`,
    );
    return Boolean(rows[0]?.refused);
  });
}

/**
 * `PATCH /v1/organizations/{orgId}`: the name, the second-factor switch and the key policy. Turning the switch on needs the
 * caller to have a second factor (an admin cannot lock themselves out). The change, its epoch bump (cached keys
 * learn the policy on their next request, on every instance) and `organization.updated` commit together; unchanged
 * values write nothing.
 */
export async function updateOrganization(
  organizationId: string,
  change: UpdateOrganizationBody,
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
    const name = change.name ?? current.name;
    const next = change.requireTwoFactor ?? current.requireTwoFactor;
    const nextPolicy = change.keyPolicy === undefined ? current.keyPolicy : canonicalKeyPolicy(change.keyPolicy);
    const changes: AuditChange[] = [];
    if (name !== current.name) changes.push({ field: 'name', from: current.name, to: name });
    if (next !== current.requireTwoFactor)
      changes.push({ field: 'requireTwoFactor', from: current.requireTwoFactor, to: next });
    if (!isDeepStrictEqual(nextPolicy, current.keyPolicy))
      changes.push({ field: 'keyPolicy', from: current.keyPolicy, to: nextPolicy });
    if (changes.length === 0) return current;
    if (next && !current.requireTwoFactor && !(await hasSecondFactor(tx, principal.id)))
      throw new ApiError(
        'two_factor_required',
        'Add a second factor to your own account before requiring one of every member.',
      );
    const [row] = await tx
      .update(t.organizations)
      .set({ name, requireTwoFactor: next, keyPolicy: nextPolicy })
      .where(eq(t.organizations.id, organizationId))
      .returning();
    await bumpAuthEpoch(tx);
    await recordAuditEvent(tx, {
      ...source,
      organizationId,
      action: 'organization.updated',
      target: { type: 'organization', id: organizationId, name: current.name },
      changes,
    });
    return row;
  });
  invalidateAuthCaches();
  return toOrganization(updated);
}
