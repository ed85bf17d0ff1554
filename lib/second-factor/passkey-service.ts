import { createHash } from 'node:crypto';
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { getDb } from '../db/client';
import * as t from '../db/schema';
import { invalidRequest, notFound } from '../errors';
import { configuredOrigin } from '../http/public-origin';
import type { Principal } from '../auth/principal';
import { invalidateAuthCaches } from '../auth/cache';
import { bumpAuthEpoch } from '../auth/epoch';
import { recordUserAuditEvent } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { hasSecondFactor, replaceRecoveryCodes } from './service';
import { deleteInBatches } from '../db/batched-delete';

const CHALLENGE_TTL_MS = 5 * 60_000;
const RP_NAME = 'svc-console';

/** The relying party: the public origin (NEXTAUTH_URL) and its host as RP ID; browsers refuse an IP address. */
function relyingParty(): { origin: string; rpID: string } {
  const origin = configuredOrigin();
  if (!origin) throw new Error('Passkeys need NEXTAUTH_URL (the public origin) to be set.');
  return { origin, rpID: new URL(origin).hostname };
}

const challengeHash = (challenge: string) => createHash('sha256').update(challenge).digest('hex');

/** Remembers a challenge by its hash only: the challenge itself is useless to anyone reading the database. */
async function rememberChallenge(challenge: string, purpose: 'register' | 'authenticate', userId: string | null) {
  const db = await getDb();
  await db.insert(t.webauthnChallenges).values({
    challengeHash: challengeHash(challenge),
    userId,
    purpose,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
  });
}

/** Takes a challenge once: true only for the first caller, before it expires, for the purpose and user it was issued. */
async function takeChallenge(challenge: string, purpose: 'register' | 'authenticate', userId: string | null) {
  const db = await getDb();
  const taken = await db
    .delete(t.webauthnChallenges)
    .where(
      and(
        eq(t.webauthnChallenges.challengeHash, challengeHash(challenge)),
        eq(t.webauthnChallenges.purpose, purpose),
        gt(t.webauthnChallenges.expiresAt, new Date()),
        userId === null ? sql`true` : or(isNull(t.webauthnChallenges.userId), eq(t.webauthnChallenges.userId, userId)),
      ),
    )
    .returning({ hash: t.webauthnChallenges.challengeHash });
  return taken.length > 0;
}

const badResponse = (path: string) =>
  invalidRequest([{ path, message: 'The passkey response does not check out; try again.' }]);

/** `POST /v1/me/passkeys/options`: creation options, excluding the user's passkeys so one is not added twice. */
export async function passkeyCreationOptions(principal: Principal, email: string) {
  const { rpID } = relyingParty();
  const db = await getDb();
  const existing = await db
    .select({ id: t.passkeys.credentialId, transports: t.passkeys.transports })
    .from(t.passkeys)
    .where(eq(t.passkeys.userId, principal.id));
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: email,
    userDisplayName: principal.name,
    userID: new TextEncoder().encode(principal.id),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports as AuthenticatorTransport[] })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await rememberChallenge(options.challenge, 'register', principal.id);
  return options;
}

/** `POST /v1/me/passkeys`: verifies the new credential and stores its public key, in one transaction with its event. */
export async function addPasskey(principal: Principal, name: string, response: unknown, source: AuditSource) {
  const { origin, rpID } = relyingParty();
  const verification = await verifyRegistrationResponse({
    response: response as RegistrationResponseJSON,
    expectedChallenge: (challenge) => takeChallenge(challenge, 'register', principal.id),
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified) throw badResponse('response');
  const { credential } = verification.registrationInfo;
  const db = await getDb();
  const { row, recoveryCodes } = await db.transaction(async (tx) => {
    const first = !(await hasSecondFactor(tx, principal.id));
    const [inserted] = await tx
      .insert(t.passkeys)
      .values({
        userId: principal.id,
        name,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) throw badResponse('response');
    const codes = first ? await replaceRecoveryCodes(tx, principal.id) : [];
    await bumpAuthEpoch(tx);
    await recordUserAuditEvent(tx, principal.id, {
      ...source,
      action: 'passkey.added',
      target: { type: 'passkey', id: inserted.id, name },
    });
    return { row: inserted, recoveryCodes: codes };
  });
  invalidateAuthCaches();
  return {
    passkey: { id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), lastUsedAt: null },
    recoveryCodes,
  };
}

/** `DELETE /v1/me/passkeys/{id}`: another user's passkey is 404; with the last factor gone the recovery codes go. */
export async function removePasskey(principal: Principal, passkeyId: string, source: AuditSource): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [removed] = await tx
      .delete(t.passkeys)
      .where(and(eq(t.passkeys.id, passkeyId), eq(t.passkeys.userId, principal.id)))
      .returning({ id: t.passkeys.id, name: t.passkeys.name });
    if (!removed) throw notFound('No such passkey.');
    if (!(await hasSecondFactor(tx, principal.id)))
      await tx.delete(t.recoveryCodes).where(eq(t.recoveryCodes.userId, principal.id));
    await bumpAuthEpoch(tx);
    await recordUserAuditEvent(tx, principal.id, {
      ...source,
      action: 'passkey.removed',
      target: { type: 'passkey', id: removed.id, name: removed.name },
    });
  });
  invalidateAuthCaches();
}

/** `POST /v1/auth/passkey/options`: request options for any passkey of this site (discoverable credentials). */
export async function passkeyRequestOptions() {
  const { rpID } = relyingParty();
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'preferred' });
  await rememberChallenge(options.challenge, 'authenticate', null);
  return options;
}

/**
 * An assertion for sign-in (any user: `userId` null) or re-authentication (that user's passkeys only). Returns the
 * user it proves, or null; the signature counter and last use are updated.
 */
export async function verifyPasskeyAssertion(response: unknown, userId: string | null): Promise<string | null> {
  const assertion = response as AuthenticationResponseJSON;
  if (typeof assertion?.id !== 'string') return null;
  const { origin, rpID } = relyingParty();
  const db = await getDb();
  const [key] = await db
    .select()
    .from(t.passkeys)
    .where(and(eq(t.passkeys.credentialId, assertion.id), userId ? eq(t.passkeys.userId, userId) : sql`true`));
  if (!key) return null;
  const verification = await verifyAuthenticationResponse({
    response: assertion,
    expectedChallenge: (challenge) => takeChallenge(challenge, 'authenticate', key.userId),
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential: {
      id: key.credentialId,
      publicKey: new Uint8Array(Buffer.from(key.publicKey, 'base64url')),
      counter: key.counter,
      transports: key.transports as AuthenticatorTransport[],
    },
    requireUserVerification: false,
  }).catch(() => null);
  if (!verification?.verified) return null;
  await db
    .update(t.passkeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: new Date() })
    .where(eq(t.passkeys.id, key.id));
  return key.userId;
}

/** Expired challenges nobody answered: housekeeping drops them. */
export async function pruneWebauthnChallenges(now = new Date()): Promise<void> {
  await deleteInBatches(t.webauthnChallenges, lt(t.webauthnChallenges.expiresAt, now));
}
