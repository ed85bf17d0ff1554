import { and, eq } from 'drizzle-orm';
import { effectivePermissions } from '../access/service';
import type { Principal } from '../auth/principal';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { notFound } from '../errors';
import type { CurrentApiKey } from './schema';
import { keyPolicyFor } from './restrictions';
import { toApiKey } from './service';

/**
 * `GET /v1/api-key`: the calling key, and what it may do now, from the same evaluation every request's check
 * uses (the owner's bindings intersected with the key's restrictions), so the two never disagree.
 */
export async function describeCurrentKey(
  principal: Principal,
  clientIp: string,
  now = new Date(),
): Promise<CurrentApiKey> {
  const organizationId = principal.organizationId;
  if (!principal.apiKeyId || !organizationId) throw notFound();
  const db = await getDb();
  const [row] = await db
    .select()
    .from(t.apiKeys)
    .where(and(eq(t.apiKeys.id, principal.apiKeyId), eq(t.apiKeys.organizationId, organizationId)));
  if (!row) throw notFound();
  const [access, policy] = await Promise.all([
    effectivePermissions(principal, organizationId),
    keyPolicyFor(db, organizationId, false),
  ]);
  const wide = new Set<string>(access.organization);
  const effective = [
    ...access.organization.map((permission) => ({ permission, projectId: null })),
    ...access.projects.flatMap(({ projectId, permissions }) =>
      permissions.filter((p) => !wide.has(p)).map((permission) => ({ permission, projectId })),
    ),
  ];
  return {
    apiKey: toApiKey({ ...row, ownerName: principal.name }, now, policy),
    organizationId,
    effective,
    clientIp,
  };
}
