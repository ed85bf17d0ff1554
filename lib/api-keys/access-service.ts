import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Permission } from '../permissions';
import { PERMISSIONS } from '../permissions';
import { ownerHasPermission } from '../auth/service';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import type { ApiKeyAccess } from './schema';
import { keyPolicyFor } from './restrictions';
import { toApiKey } from './service';

/**
 * What a key would use of its owner's permissions now, for its page: each permission at each scope the key reaches
 * (the organization, or each of its projects), with whether the owner still holds it. A restricted key lists what
 * it names, struck through where the owner lost it; a Full access key lists what the owner holds.
 */
export async function apiKeyAccess(
  organizationId: string,
  keyId: string,
  now = new Date(),
): Promise<ApiKeyAccess | null> {
  const db = await getDb();
  const [key] = await db
    .select()
    .from(t.apiKeys)
    .where(and(eq(t.apiKeys.id, keyId), eq(t.apiKeys.organizationId, organizationId), isNull(t.apiKeys.revokedAt)));
  if (!key) return null;
  const owner = { type: key.ownerType, id: key.ownerId };
  const table = key.ownerType === 'bot' ? t.bots : t.users;
  const [[named], projects, policy] = await Promise.all([
    db.select({ name: table.name }).from(table).where(eq(table.id, key.ownerId)),
    db
      .select({ id: t.projects.id })
      .from(t.projects)
      .where(eq(t.projects.organizationId, organizationId))
      .orderBy(asc(t.projects.createdAt), asc(t.projects.id)),
    keyPolicyFor(db, organizationId, false),
  ]);
  const restricted = key.permissions !== null;
  // Full access without projects: the organization, then each project for what a project binding adds there.
  const scopes: (string | null)[] = key.projectIds ?? (restricted ? [null] : [null, ...projects.map((p) => p.id)]);
  const entries = await Promise.all(
    scopes.flatMap((projectId) =>
      ((key.permissions ?? PERMISSIONS) as Permission[]).map(async (permission) => ({
        permission,
        projectId,
        ownerHolds: await ownerHasPermission(owner, permission, { organizationId, projectId }),
      })),
    ),
  );
  const wide = new Set(entries.filter((e) => e.projectId === null && e.ownerHolds).map((e) => e.permission));
  const listed = restricted
    ? entries
    : entries.filter(
        (e) => e.ownerHolds && (e.projectId === null || key.projectIds !== null || !wide.has(e.permission)),
      );
  return { apiKey: toApiKey({ ...key, ownerName: named?.name ?? '' }, now, policy), permissions: listed };
}
