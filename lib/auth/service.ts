import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client';
import * as t from '../db/schema';
import { isWellFormedApiKey, sha256Hex } from './api-key-format';
import type { Permission } from '../permissions';
import type { Principal } from './principal';
import { authCache, invalidateAuthCaches } from './cache';
import { keyScopeMisses, keyScopeOf } from './key-scope';
import { bumpAuthEpoch, checkAuthEpoch, type EpochCheck } from './epoch';
import { recordUserAuditEvent } from '../audit/record';
import { userActor } from '../audit/source';
import type { AuditContext } from '../db/audit-types';

/**
 * The one lookup behind an API key: the key by its hash, joined to its owner, refused unless the key
 * is unrevoked and unexpired and the owner can still act in the key's organization.
 */
export async function principalForApiKey(
  secret: string,
  now = new Date(),
  epoch: EpochCheck = 'read',
): Promise<Principal | null> {
  // Malformed or checksum-failing keys never reach the database.
  if (!isWellFormedApiKey(secret)) return null;
  const hash = sha256Hex(secret);
  await checkAuthEpoch(epoch);
  const found = await apiKeyCache.through(hash, () => lookUpApiKey(hash));
  // The cache may outlive the key's expiry or a roll's stopsAt by up to its TTL: check both instants here.
  return found && keyWorksAt(found, now) ? found.principal : null;
}

/** A key works strictly before its expiry and before the end of a roll's grace period (`stopsAt`). */
export function keyWorksAt(key: { expiresAt: Date | null; stopsAt: Date | null }, now: Date): boolean {
  return !(key.expiresAt && key.expiresAt <= now) && !(key.stopsAt && key.stopsAt <= now);
}

type CachedKey = { principal: Principal; expiresAt: Date | null; stopsAt: Date | null } | null;
const apiKeyCache = authCache<CachedKey>();

async function lookUpApiKey(secretHash: string): Promise<CachedKey> {
  const now = new Date();
  const db = await getDb();
  const [row] = await db
    .select({
      keyId: t.apiKeys.id,
      prefix: t.apiKeys.prefix,
      organizationId: t.apiKeys.organizationId,
      ownerType: t.apiKeys.ownerType,
      ownerId: t.apiKeys.ownerId,
      userName: t.users.name,
      userStatus: t.users.status,
      member: t.memberships.userId,
      botName: t.bots.name,
      botDeletedAt: t.bots.deletedAt,
      botOrg: t.bots.organizationId,
      createdAt: t.apiKeys.createdAt,
      expiresAt: t.apiKeys.expiresAt,
      stopsAt: t.apiKeys.stopsAt,
      permissions: t.apiKeys.permissions,
      projectIds: t.apiKeys.projectIds,
      allowedIps: t.apiKeys.allowedIps,
      keyPolicy: t.organizations.keyPolicy,
    })
    .from(t.apiKeys)
    .innerJoin(t.organizations, eq(t.organizations.id, t.apiKeys.organizationId))
    .leftJoin(t.users, and(eq(t.apiKeys.ownerType, 'user'), eq(t.users.id, t.apiKeys.ownerId)))
    .leftJoin(
      t.memberships,
      and(eq(t.memberships.userId, t.apiKeys.ownerId), eq(t.memberships.organizationId, t.apiKeys.organizationId)),
    )
    .leftJoin(t.bots, and(eq(t.apiKeys.ownerType, 'bot'), eq(t.bots.id, t.apiKeys.ownerId)))
    .where(
      and(
        eq(t.apiKeys.secretHash, secretHash),
        isNull(t.apiKeys.revokedAt),
        or(isNull(t.apiKeys.expiresAt), gt(t.apiKeys.expiresAt, now)),
        or(isNull(t.apiKeys.stopsAt), gt(t.apiKeys.stopsAt, now)),
      ),
    )
    .limit(1);
  if (!row) return null;
  // Built here, once per cached lookup: a request then checks its restrictions without a query of its own.
  const keyScope = keyScopeOf(
    {
      permissions: row.permissions ?? null,
      projectIds: row.projectIds ?? null,
      allowedIps: row.allowedIps ?? null,
      createdAt: row.createdAt,
      expiresAt: row.expiresAt,
    },
    row.keyPolicy ?? null,
  );
  // A user's key works while they are an active member; a bot's while the bot is undeleted, of the key's organization.
  const name =
    row.ownerType === 'user'
      ? row.userStatus === 'active' && row.member && row.userName
      : !row.botDeletedAt && row.botOrg === row.organizationId && row.botName;
  if (!name) return null;
  const principal: Principal = {
    type: row.ownerType,
    id: row.ownerId,
    name,
    via: 'api_key',
    apiKeyId: row.keyId,
    apiKeyPrefix: row.prefix,
    organizationId: row.organizationId,
    keyScope,
  };
  return { principal, expiresAt: row.expiresAt, stopsAt: row.stopsAt };
}

/** An OAuth access token issued by the device login: unrevoked, unexpired, and its user still active. */
export async function principalForOAuthToken(
  token: string,
  now = new Date(),
  epoch: EpochCheck = 'read',
): Promise<Principal | null> {
  if (token.length < 20 || token.length > 200) return null;
  const hash = sha256Hex(token);
  await checkAuthEpoch(epoch);
  const found = await oauthCache.through(hash, () => lookUpOAuthToken(hash));
  if (!found || found.expiresAt <= now) return null;
  return found.principal;
}

type CachedToken = { principal: Principal; expiresAt: Date } | null;
const oauthCache = authCache<CachedToken>();

async function lookUpOAuthToken(tokenHash: string): Promise<CachedToken> {
  const now = new Date();
  const db = await getDb();
  const [row] = await db
    .select({ userId: t.users.id, name: t.users.name, status: t.users.status, expiresAt: t.oauthTokens.expiresAt })
    .from(t.oauthTokens)
    .innerJoin(t.users, eq(t.users.id, t.oauthTokens.userId))
    .where(
      and(
        eq(t.oauthTokens.tokenHash, tokenHash),
        eq(t.oauthTokens.kind, 'access'),
        isNull(t.oauthTokens.revokedAt),
        gt(t.oauthTokens.expiresAt, now),
      ),
    )
    .limit(1);
  if (!row || row.status !== 'active') return null;
  return { principal: { type: 'user', id: row.userId, name: row.name, via: 'oauth' }, expiresAt: row.expiresAt };
}

/**
 * A session is honoured only while its user is active, no event has ended every session (version bump)
 * and this session was not signed out.
 */
const sessionCache = authCache<{
  id: string;
  name: string;
  status: string;
  sessionVersion: number;
  ended: boolean;
} | null>();

export async function principalForSession(
  userId: string,
  sessionVersion: number,
  sessionId: string,
  epoch: EpochCheck = 'read',
): Promise<Principal | null> {
  await checkAuthEpoch(epoch);
  const user = await sessionCache.through(`${userId}:${sessionId}`, async () => {
    const db = await getDb();
    const [row] = await db
      .select({
        id: t.users.id,
        name: t.users.name,
        status: t.users.status,
        sessionVersion: t.users.sessionVersion,
        ended: sql<boolean>`exists (select 1 from ${t.endedSessions} where ${t.endedSessions.id} = ${sessionId})`,
      })
      .from(t.users)
      .where(eq(t.users.id, userId))
      .limit(1);
    return row ?? null;
  });
  if (!user || user.ended || user.status !== 'active' || user.sessionVersion !== sessionVersion) return null;
  return { type: 'user', id: user.id, name: user.name, via: 'session', sessionId };
}

/** Signing out: this session ends now on every instance; the record goes when the session would have expired. */
export async function endSession(userId: string, sessionId: string, expiresAt: Date): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.insert(t.endedSessions).values({ id: sessionId, userId, expiresAt }).onConflictDoNothing();
    await bumpAuthEpoch(tx);
  });
  invalidateAuthCaches();
}

/** "Sign out of all sessions": every session of the user made so far ends now, on every instance. */
export async function endAllSessions(userId: string): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx
      .update(t.users)
      .set({ sessionVersion: sql`${t.users.sessionVersion} + 1`, updatedAt: new Date() })
      .where(eq(t.users.id, userId));
    await bumpAuthEpoch(tx);
  });
  invalidateAuthCaches();
}

/** Whether the organization exists and the principal is in it. Everything else about it is then 404. */
const membershipCache = authCache<boolean>();

export async function canSeeOrganization(principal: Principal, organizationId: string): Promise<boolean> {
  if (principal.organizationId) return principal.organizationId === organizationId;
  return membershipCache.through(`${principal.id}:${organizationId}`, async () => {
    const db = await getDb();
    const rows = await db
      .select({ one: sql<number>`1` })
      .from(t.memberships)
      .where(and(eq(t.memberships.organizationId, organizationId), eq(t.memberships.userId, principal.id)))
      .limit(1);
    return rows.length > 0;
  });
}

export type ProjectRef = typeof t.projects.$inferSelect;

const projectCache = authCache<ProjectRef | null>();

export async function findProject(organizationId: string, projectId: string): Promise<ProjectRef | null> {
  return projectCache.through(`${organizationId}:${projectId}`, async () => {
    const db = await getDb();
    const [project] = await db
      .select()
      .from(t.projects)
      .where(and(eq(t.projects.id, projectId), eq(t.projects.organizationId, organizationId)))
      .limit(1);
    return project ?? null;
  });
}

type Grant = { projectId: string | null; permissions: ReadonlySet<string> };
const grantCache = authCache<Grant[]>();

/** The principal's policy bindings in the organization with their policies' permissions, read through `db` (a transaction, for a caller that holds one). */
export function bindingsWithPermissions(db: DbOrTx, principal: Pick<Principal, 'type' | 'id'>, organizationId: string) {
  return db
    .select({ projectId: t.policyBindings.projectId, permissions: t.policies.permissions })
    .from(t.policyBindings)
    .innerJoin(t.policies, eq(t.policies.name, t.policyBindings.policy))
    .where(
      and(
        eq(t.policyBindings.organizationId, organizationId),
        eq(t.policyBindings.principalType, principal.type),
        eq(t.policyBindings.principalId, principal.id),
      ),
    );
}

/** Every policy binding of the principal in the organization, with its policy's permissions: one query. */
async function grantsOf(principal: Pick<Principal, 'type' | 'id'>, organizationId: string): Promise<Grant[]> {
  return grantCache.through(`${principal.type}:${principal.id}:${organizationId}`, async () => {
    const rows = await bindingsWithPermissions(await getDb(), principal, organizationId);
    return rows.map((r) => ({ projectId: r.projectId, permissions: new Set(r.permissions) }));
  });
}

/**
 * "May this principal do `permission` here?", answered from the policy bindings in the database (cached
 * at most a second, and dropped at once when anything about access changes). An organization-scope binding
 * applies to every project; a project-scope binding only to its project, never to organization-level actions.
 */
export async function hasPermission(
  principal: Pick<Principal, 'type' | 'id' | 'keyScope'>,
  permission: Permission,
  scope: { organizationId: string; projectId?: string | null },
): Promise<boolean> {
  // A key's restrictions only take away, and cost no query: checked before the owner's grants.
  if (principal.keyScope && keyScopeMisses(principal.keyScope, permission, scope.projectId ?? null) !== null)
    return false;
  return ownerHasPermission(principal, permission, scope);
}

/**
 * The owner's side alone: what the principal's bindings grant now, whatever a key narrows. A refused key's 403
 * says which side lacks the permission from this.
 */
export async function ownerHasPermission(
  principal: Pick<Principal, 'type' | 'id'>,
  permission: Permission,
  scope: { organizationId: string; projectId?: string | null },
): Promise<boolean> {
  const grants = await grantsOf(principal, scope.organizationId);
  return grants.some(
    (g) =>
      g.permissions.has(permission) &&
      (g.projectId === null || (scope.projectId != null && g.projectId === scope.projectId)),
  );
}

/** Email and password sign-in for the credentials provider. Returns the user only when active. */
export async function findUserByEmail(email: string) {
  const db = await getDb();
  const [user] = await db.select().from(t.users).where(eq(t.users.email, email.trim().toLowerCase())).limit(1);
  return user ?? null;
}

/** The user a passkey proved, for the passkey sign-in provider. */
export async function findUserById(userId: string) {
  const db = await getDb();
  const [user] = await db.select().from(t.users).where(eq(t.users.id, userId)).limit(1);
  return user ?? null;
}

/**
 * A sign-in's audit event, in each of the user's organizations: succeeded (`reason`: how), or failed for a
 * known email (`reason`: why). The attempted password goes nowhere.
 */
export async function recordSignIn(
  user: { id: string; name: string },
  outcome: 'succeeded' | 'failed',
  reason: string,
  context: AuditContext,
): Promise<void> {
  const db = await getDb();
  await db.transaction((tx) =>
    recordUserAuditEvent(tx, user.id, {
      actor: { ...userActor(user), via: outcome === 'succeeded' ? 'session' : null },
      context,
      action: outcome === 'succeeded' ? 'sign_in.succeeded' : 'sign_in.failed',
      target: { type: 'user', id: user.id, name: user.name },
      reason,
    }),
  );
}
