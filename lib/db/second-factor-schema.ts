import { bigint, index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './schema';
import { id, ts } from './columns';

const userRef = () =>
  uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' });

/**
 * A user's TOTP factor: the secret sealed under ENCRYPTION_KEY (lib/crypto/secret-box.ts), pending until
 * `confirmedAt`. `lastStep` is the newest 30 s step accepted: a code of that step or an older one is a replay.
 */
export const userTotp = pgTable('user_totp', {
  userId: userRef().primaryKey(),
  secretBox: text('secret_box').notNull(),
  confirmedAt: ts('confirmed_at'),
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** One-time recovery codes, as SHA-256 of the code: each is 80 random bits, so a plain digest cannot be searched. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: userRef(),
    codeHash: text('code_hash').notNull(),
    usedAt: ts('used_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_idx').on(t.userId, t.codeHash)],
);

/** WebAuthn credentials: public keys only; the private half never leaves the authenticator. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: id(),
    userId: userRef(),
    name: text('name').notNull(),
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    createdAt: ts('created_at').notNull().defaultNow(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [uniqueIndex('passkeys_credential_idx').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/** Outstanding WebAuthn challenges, as SHA-256 of the challenge: single use, a few minutes long. */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challengeHash: text('challenge_hash').primaryKey(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['register', 'authenticate'] }).notNull(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('webauthn_challenges_expires_idx').on(t.expiresAt)],
);

/** When each console session last proved its user (sign-in or re-authentication): the sudo window, on every instance. */
export const sessionSudo = pgTable(
  'session_sudo',
  {
    sessionId: text('session_id').primaryKey(),
    userId: userRef(),
    authenticatedAt: ts('authenticated_at').notNull(),
  },
  (t) => [index('session_sudo_authenticated_idx').on(t.authenticatedAt)],
);
