import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { organizations, users } from './schema';
import { id, ts } from './columns';

/** A policy binding as an invitation carries it until it is accepted. */
export type InvitedPolicy = { policy: string; projectId: string | null };

/**
 * The one-time setup URLs a server without users logs at start (PRODUCT.md "The first administrator"): only the
 * SHA-256 of each token. Every start adds one, so the URL in the newest log line works; the setup deletes them all.
 */
export const setupTokens = pgTable('setup_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/**
 * One row once the first administrator is made: its primary key is what lets exactly one of two concurrent setups
 * win, on one database or across instances (the loser's insert waits for the winner's commit, then conflicts).
 */
export const installation = pgTable(
  'installation',
  {
    id: integer('id').primaryKey(),
    setUpAt: ts('set_up_at').notNull().defaultNow(),
  },
  (t) => [check('installation_one_row', sql`${t.id} = 1`)],
);

/** One-time links to choose a password (`npm run user:create`): only the token's SHA-256, single use. */
export const passwordTokens = pgTable(
  'password_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('password_tokens_user_idx').on(t.userId)],
);

/** An invitation to join an organization by email; pending while neither accepted, revoked nor expired. */
export const invitations = pgTable(
  'invitations',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    email: text('email').notNull(),
    policies: jsonb('policies').$type<InvitedPolicy[]>().notNull(),
    invitedBy: uuid('invited_by')
      .notNull()
      .references(() => users.id),
    // SHA-256 of the token in the link; a resend replaces it, so the old link dies.
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    acceptedAt: ts('accepted_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('invitations_org_idx').on(t.organizationId, t.createdAt, t.id)],
);
