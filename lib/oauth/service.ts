import { randomUUID } from 'node:crypto';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { getDb, type DbOrTx } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import * as t from '../db/schema';
import { sha256Hex } from '../auth/api-key-format';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordUserAuditEvent } from '../audit/record';
import { SYSTEM_ACTOR, userActor } from '../audit/source';
import type { AuditContext, AuditSource } from '../db/audit-types';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  DEVICE_CODE_TTL_SECONDS,
  OAUTH_CLIENTS,
  POLL_INTERVAL_SECONDS,
  REFRESH_TOKEN_TTL_SECONDS,
  SLOW_DOWN_STEP_SECONDS,
  formatUserCode,
  generateDeviceCode,
  generateToken,
  generateUserCode,
  normalizeUserCode,
} from './codes';
import type { DeviceAuthorizationView } from './schema';

/** The RFC 6749 §5.2 / RFC 8628 §3.5 error codes this service answers. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'authorization_pending'
  | 'slow_down'
  | 'access_denied'
  | 'expired_token';

export class OAuthError extends Error {
  constructor(
    readonly code: OAuthErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OAuthError';
  }
}

export type TokenSet = { access_token: string; token_type: 'Bearer'; expires_in: number; refresh_token: string };

const inSeconds = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000);

function requireClient(clientId: string | null): string {
  if (!clientId || !OAUTH_CLIENTS[clientId]) throw new OAuthError('invalid_client', 'Unknown client_id.');
  return clientId;
}

/** RFC 8628 §3.1–3.2: a new device code and the user code a person types in the console. */
export async function createDeviceAuthorization(clientIdParam: string | null, now = new Date()) {
  const clientId = requireClient(clientIdParam);
  const db = await getDb();
  // Expired rows only hold user codes that could be handed out again.
  await db.delete(t.oauthDeviceCodes).where(lt(t.oauthDeviceCodes.expiresAt, now));
  for (let attempt = 0; ; attempt++) {
    const deviceCode = generateDeviceCode();
    const userCode = generateUserCode();
    try {
      await db.insert(t.oauthDeviceCodes).values({
        deviceCodeHash: sha256Hex(deviceCode),
        userCode: sha256Hex(normalizeUserCode(userCode)!),
        clientId,
        clientName: OAUTH_CLIENTS[clientId].name,
        intervalSeconds: POLL_INTERVAL_SECONDS,
        createdAt: now,
        expiresAt: inSeconds(now, DEVICE_CODE_TTL_SECONDS),
      });
      return { deviceCode, userCode, expiresIn: DEVICE_CODE_TTL_SECONDS, interval: POLL_INTERVAL_SECONDS };
    } catch (err) {
      // A user code still in use by another login: draw again.
      if (!isUniqueViolation(err) || attempt >= 4) throw err;
    }
  }
}

async function issueTokens(
  db: DbOrTx,
  userId: string,
  clientId: string,
  grantId: string,
  now: Date,
): Promise<TokenSet> {
  const access = generateToken('access');
  const refresh = generateToken('refresh');
  await db.insert(t.oauthTokens).values([
    {
      tokenHash: sha256Hex(access),
      kind: 'access',
      userId,
      grantId,
      clientId,
      createdAt: now,
      expiresAt: inSeconds(now, ACCESS_TOKEN_TTL_SECONDS),
    },
    {
      tokenHash: sha256Hex(refresh),
      kind: 'refresh',
      userId,
      grantId,
      clientId,
      createdAt: now,
      expiresAt: inSeconds(now, REFRESH_TOKEN_TTL_SECONDS),
    },
  ]);
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS, refresh_token: refresh };
}

async function userIsActive(db: DbOrTx, userId: string): Promise<boolean> {
  const [user] = await db.select({ status: t.users.status }).from(t.users).where(eq(t.users.id, userId)).limit(1);
  return user?.status === 'active';
}

/**
 * RFC 8628 §3.4–3.5, one poll of the token endpoint: tokens once the code is approved (exactly once),
 * else the error that tells the device what to do next.
 */
export async function exchangeDeviceCode(
  deviceCode: string | null,
  clientIdParam: string | null,
  now = new Date(),
): Promise<TokenSet> {
  const clientId = requireClient(clientIdParam);
  if (!deviceCode) throw new OAuthError('invalid_request', 'device_code is required.');
  const db = await getDb();
  const [code] = await db
    .select()
    .from(t.oauthDeviceCodes)
    .where(eq(t.oauthDeviceCodes.deviceCodeHash, sha256Hex(deviceCode)))
    .limit(1);
  if (!code || code.clientId !== clientId) throw new OAuthError('invalid_grant', 'Unknown device_code.');
  if (code.status === 'used')
    throw new OAuthError('invalid_grant', 'This device_code was already exchanged for tokens.');
  if (code.expiresAt <= now)
    throw new OAuthError('expired_token', 'The device code has expired; start the login again.');
  if (code.status === 'denied') throw new OAuthError('access_denied', 'The login was denied in the console.');

  if (code.status === 'pending') {
    const tooSoon =
      code.lastPolledAt !== null && now.getTime() - code.lastPolledAt.getTime() < code.intervalSeconds * 1000;
    await db
      .update(t.oauthDeviceCodes)
      .set({
        lastPolledAt: now,
        ...(tooSoon ? { intervalSeconds: sql`${t.oauthDeviceCodes.intervalSeconds} + ${SLOW_DOWN_STEP_SECONDS}` } : {}),
      })
      .where(eq(t.oauthDeviceCodes.id, code.id));
    if (tooSoon)
      throw new OAuthError(
        'slow_down',
        `Polling too fast; wait ${code.intervalSeconds + SLOW_DOWN_STEP_SECONDS} seconds between requests.`,
      );
    throw new OAuthError('authorization_pending', 'Waiting for the user to approve the login in the console.');
  }

  return db.transaction(async (tx) => {
    // Only the poll that flips approved → used gets tokens, however many arrive at once.
    const [claimed] = await tx
      .update(t.oauthDeviceCodes)
      .set({ status: 'used', lastPolledAt: now })
      .where(and(eq(t.oauthDeviceCodes.id, code.id), eq(t.oauthDeviceCodes.status, 'approved')))
      .returning({ userId: t.oauthDeviceCodes.userId });
    if (!claimed?.userId) throw new OAuthError('invalid_grant', 'This device_code was already exchanged for tokens.');
    if (!(await userIsActive(tx, claimed.userId)))
      throw new OAuthError('access_denied', 'The approving user is not active.');
    return issueTokens(tx, claimed.userId, clientId, randomUUID(), now);
  });
}

/**
 * Ends a login (both of its tokens) in one transaction with its audit event, in each of the user's
 * organizations; a login already ended writes nothing. `byUser`: the user logged out; otherwise the
 * service ended it (a refresh token presented twice).
 */
async function endLogin(
  grantId: string,
  now: Date,
  audit: { context: AuditContext; byUser: boolean; reason: string | null },
): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const revoked = await tx
      .update(t.oauthTokens)
      .set({ revokedAt: now })
      .where(and(eq(t.oauthTokens.grantId, grantId), isNull(t.oauthTokens.revokedAt)))
      .returning({ userId: t.oauthTokens.userId, clientId: t.oauthTokens.clientId });
    if (revoked.length === 0) return;
    // Every instance refuses the login's tokens from this commit on.
    await bumpAuthEpoch(tx);
    const [user] = await tx
      .select({ id: t.users.id, name: t.users.name })
      .from(t.users)
      .where(eq(t.users.id, revoked[0].userId));
    const clientId = revoked[0].clientId;
    await recordUserAuditEvent(tx, user.id, {
      actor: audit.byUser ? userActor(user, 'oauth') : SYSTEM_ACTOR,
      context: audit.context,
      action: 'oauth_login.revoked',
      target: { type: 'oauth_login', id: grantId, name: OAUTH_CLIENTS[clientId]?.name ?? clientId },
      reason: audit.reason,
    });
  });
  invalidateAuthCaches();
}

async function revokeGrant(db: DbOrTx, grantId: string, now: Date): Promise<void> {
  await db
    .update(t.oauthTokens)
    .set({ revokedAt: now })
    .where(and(eq(t.oauthTokens.grantId, grantId), isNull(t.oauthTokens.revokedAt)));
  await bumpAuthEpoch(db);
  // Inside a transaction this runs again after the commit (see refreshTokens); harmless twice.
  invalidateAuthCaches();
}

/**
 * RFC 6749 §6 with rotation: a refresh token works once and is replaced, with a new access token, in the
 * same grant. A refresh token presented a second time means it leaked: the whole grant is revoked.
 */
export async function refreshTokens(
  refreshToken: string | null,
  clientIdParam: string | null,
  context: AuditContext,
  now = new Date(),
): Promise<TokenSet> {
  const clientId = requireClient(clientIdParam);
  if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required.');
  const db = await getDb();
  const invalid = new OAuthError('invalid_grant', 'The refresh token is invalid, expired or revoked; log in again.');
  const [token] = await db
    .select()
    .from(t.oauthTokens)
    .where(and(eq(t.oauthTokens.tokenHash, sha256Hex(refreshToken)), eq(t.oauthTokens.kind, 'refresh')))
    .limit(1);
  if (!token || token.clientId !== clientId) throw invalid;
  const reused = { context, byUser: false, reason: 'refresh_token_reused' };
  if (token.revokedAt) {
    await endLogin(token.grantId, now, reused);
    throw invalid;
  }
  if (token.expiresAt <= now || !(await userIsActive(db, token.userId))) throw invalid;
  const rotated = await db.transaction(async (tx) => {
    const [still] = await tx
      .update(t.oauthTokens)
      .set({ revokedAt: now })
      .where(and(eq(t.oauthTokens.id, token.id), isNull(t.oauthTokens.revokedAt)))
      .returning({ id: t.oauthTokens.id });
    if (!still) return null;
    await revokeGrant(tx, token.grantId, now);
    return issueTokens(tx, token.userId, clientId, token.grantId, now);
  });
  // The replaced access token must stop at once, and the rotation only counts once committed.
  invalidateAuthCaches();
  if (!rotated) {
    // Another request used this refresh token first: treat it as reuse.
    await endLogin(token.grantId, now, reused);
    throw invalid;
  }
  return rotated;
}

/** RFC 7009: revoking either token of a login revokes both. Unknown tokens are not an error. */
export async function revokeToken(
  token: string | null,
  clientIdParam: string | null,
  context: AuditContext,
  now = new Date(),
): Promise<void> {
  const clientId = requireClient(clientIdParam);
  if (!token) throw new OAuthError('invalid_request', 'token is required.');
  const db = await getDb();
  const [row] = await db
    .select({ grantId: t.oauthTokens.grantId, clientId: t.oauthTokens.clientId })
    .from(t.oauthTokens)
    .where(eq(t.oauthTokens.tokenHash, sha256Hex(token)))
    .limit(1);
  if (row && row.clientId === clientId) await endLogin(row.grantId, now, { context, byUser: true, reason: null });
}

const pendingByUserCode = (normalized: string, now: Date) =>
  and(
    eq(t.oauthDeviceCodes.userCode, sha256Hex(normalized)),
    eq(t.oauthDeviceCodes.status, 'pending'),
    gt(t.oauthDeviceCodes.expiresAt, now),
  );

function present(row: typeof t.oauthDeviceCodes.$inferSelect, normalized: string): DeviceAuthorizationView {
  return {
    userCode: formatUserCode(normalized),
    clientId: row.clientId,
    clientName: row.clientName ?? row.clientId,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    status: row.status === 'used' ? 'approved' : row.status,
  };
}

/** A login waiting for a person's decision; null once it is decided, expired or unknown. */
export async function findPendingDeviceAuthorization(
  userCode: string,
  now = new Date(),
): Promise<DeviceAuthorizationView | null> {
  const normalized = normalizeUserCode(userCode);
  if (!normalized) return null;
  const db = await getDb();
  const [row] = await db.select().from(t.oauthDeviceCodes).where(pendingByUserCode(normalized, now)).limit(1);
  return row ? present(row, normalized) : null;
}

/**
 * Approves (for this user) or denies a pending login, once, with its audit event in each of the user's
 * organizations. Null when there is no pending login by that code.
 */
export async function decideDeviceAuthorization(
  userCode: string,
  userId: string,
  decision: 'approved' | 'denied',
  source: AuditSource,
  now = new Date(),
): Promise<DeviceAuthorizationView | null> {
  const normalized = normalizeUserCode(userCode);
  if (!normalized) return null;
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(t.oauthDeviceCodes)
      .set({ status: decision, userId })
      .where(pendingByUserCode(normalized, now))
      .returning();
    if (!row) return null;
    await recordUserAuditEvent(
      tx,
      userId,
      {
        ...source,
        action: decision === 'approved' ? 'device_login.approved' : 'device_login.denied',
        target: { type: 'device_login', id: row.id, name: row.clientName ?? row.clientId },
      },
      now,
    );
    return present(row, normalized);
  });
}
