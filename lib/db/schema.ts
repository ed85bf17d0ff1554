import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
  check,
  varchar,
  bigint,
  date,
} from 'drizzle-orm/pg-core';
import { API_KEY_REVOCATION_REASONS } from '../audit-actions';
import type { AuditActor, AuditChange, AuditContext, AuditTarget } from './audit-types';
import { id, ts } from './columns';
import { queues } from './queue-schema';

/** A silence's matcher as stored; lib/silences/matchers.ts validates it (RE2, the label pattern, the limits). */
export type StoredMatcher = { label: string; op: '=' | '!=' | '=~' | '!~'; value: string };

export const organizations = pgTable('organizations', {
  id: id(),
  name: text('name').notNull(),
  // Members without a second factor are refused on this organization's routes (password users only).
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  // The rules every key of the organization must keep (lib/auth/key-scope.ts); null: none.
  keyPolicy: jsonb('key_policy').$type<{
    maxLifetimeDays: number | null;
    requireRestrictions: boolean;
    allowedIps: string[] | null;
  }>(),
  createdAt: ts('created_at').notNull().defaultNow(),
});

/** The organization a row belongs to: every tenant table's first column after its id. */
export function organizationRef() {
  return uuid('organization_id')
    .notNull()
    .references(() => organizations.id);
}

export const projects = pgTable(
  'projects',
  {
    id: id(),
    organizationId: organizationRef(),
    name: text('name').notNull(),
    alertingEnabled: boolean('alerting_enabled').notNull().default(false),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('projects_org_idx').on(t.organizationId, t.createdAt, t.id)],
);

/**
 * The organization and project a project-scoped row belongs to (fresh column builders for each table). Declared as
 * functions, so that queue-schema.ts, which this file imports, can call them while this file is still loading.
 */
export function inProject() {
  return {
    organizationId: organizationRef(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id),
  };
}

export const users = pgTable('users', {
  id: id(),
  email: text('email').notNull().unique(),
  name: text('name').notNull(),
  status: text('status', { enum: ['active', 'suspended'] })
    .notNull()
    .default('active'),
  passwordHash: text('password_hash'),
  // Bumped whenever every existing session must end (suspension, password change).
  sessionVersion: integer('session_version').notNull().default(1),
  scimExternalId: text('scim_external_id'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const memberships = pgTable(
  'memberships',
  {
    organizationId: organizationRef(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    joinedAt: ts('joined_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    index('memberships_user_idx').on(t.userId),
    index('memberships_org_joined_idx').on(t.organizationId, t.joinedAt, t.userId),
  ],
);

export const bots = pgTable(
  'bots',
  {
    id: id(),
    organizationId: organizationRef(),
    name: text('name').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    // Bots are soft-deleted so their revoked keys keep a named owner in the audit trail.
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    index('bots_org_idx').on(t.organizationId, t.createdAt, t.id),
    uniqueIndex('bots_org_name_live_idx')
      .on(t.organizationId, t.name)
      .where(sql`${t.deletedAt} is null`),
  ],
);

export const policies = pgTable('policies', {
  name: text('name').primaryKey(),
  permissions: text('permissions').array().notNull(),
});

export const policyBindings = pgTable(
  'policy_bindings',
  {
    id: id(),
    organizationId: organizationRef(),
    // null: the binding applies to the whole organization.
    projectId: uuid('project_id').references(() => projects.id),
    principalType: text('principal_type', { enum: ['user', 'bot'] }).notNull(),
    principalId: uuid('principal_id').notNull(),
    policy: text('policy')
      .notNull()
      .references(() => policies.name),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('policy_bindings_principal_idx').on(t.organizationId, t.principalType, t.principalId),
    uniqueIndex('policy_bindings_unique_idx').on(
      t.organizationId,
      t.principalType,
      t.principalId,
      t.policy,
      sql`coalesce(${t.projectId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
    ),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: id(),
    organizationId: organizationRef(),
    name: text('name').notNull(),
    // "svc_" plus the first four random characters: enough to recognise, useless to an attacker.
    prefix: text('prefix').notNull(),
    // SHA-256 of the whole key, hex. The plaintext is never stored.
    secretHash: text('secret_hash').notNull(),
    ownerType: text('owner_type', { enum: ['user', 'bot'] }).notNull(),
    ownerId: uuid('owner_id').notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at'),
    lastUsedAt: ts('last_used_at'),
    revokedAt: ts('revoked_at'),
    // The audit log's revocation reasons, so a key's reason and its event's can never disagree.
    revokedReason: text('revoked_reason', { enum: API_KEY_REVOCATION_REASONS }),
    revokedById: uuid('revoked_by_id'),
    // A rolled key works until stopsAt (its grace period), then is refused like an expired one.
    rolledAt: ts('rolled_at'),
    stopsAt: ts('stops_at'),
    // A leak report revoked it: where the key was found, shown to its owner until dismissed.
    leakedAt: ts('leaked_at'),
    leakUrl: text('leak_url'),
    leakNoticeDismissedAt: ts('leak_notice_dismissed_at'),
    // Restrictions that only take away from the owner's permissions on each request; null: unrestricted.
    permissions: jsonb('permissions').$type<string[]>(),
    projectIds: jsonb('project_ids').$type<string[]>(),
    allowedIps: jsonb('allowed_ips').$type<string[]>(),
  },
  (t) => [
    uniqueIndex('api_keys_secret_hash_idx').on(t.secretHash),
    // Ascending on purpose: scanned backwards it yields `created_at desc, id desc` (NULLS FIRST), the
    // list's exact order. A `desc()` index is written NULLS LAST and cannot serve that ORDER BY.
    index('api_keys_org_list_idx')
      .on(t.organizationId, t.createdAt, t.id)
      .where(sql`${t.revokedAt} is null`),
    index('api_keys_owner_list_idx')
      .on(t.organizationId, t.ownerType, t.ownerId, t.createdAt, t.id)
      .where(sql`${t.revokedAt} is null`),
    // The list's `q`: any part of the name, case-insensitively (trigrams), or the start of the prefix.
    // Without a pending list (migration 0015): PGlite has no autovacuum to flush it, and every search read it whole.
    index('api_keys_name_search_idx')
      .using('gin', sql`${t.name} gin_trgm_ops`)
      .with({ fastupdate: false })
      .where(sql`${t.revokedAt} is null`),
    index('api_keys_prefix_search_idx')
      .on(t.organizationId, t.prefix.op('text_pattern_ops'))
      .where(sql`${t.revokedAt} is null`),
    // The search's prefix arm (migration 0015): no column shared with the list indexes, so no planner reads those.
    index('api_keys_prefix_idx')
      .on(t.prefix.op('text_pattern_ops'))
      .where(sql`${t.revokedAt} is null`),
    check('api_keys_revocation_ck', sql`(${t.revokedAt} is null) = (${t.revokedReason} is null)`),
    // The housekeeping's scan for rolled keys whose grace has ended.
    index('api_keys_stops_idx')
      .on(t.stopsAt)
      .where(sql`${t.stopsAt} is not null and ${t.revokedAt} is null`),
    // The owners' leak notices: few rows, found without scanning the revoked keys.
    index('api_keys_leak_notice_idx')
      .on(t.organizationId, t.leakedAt)
      .where(sql`${t.leakedAt} is not null and ${t.leakNoticeDismissedAt} is null`),
  ],
);

/** Requests per API key per UTC day, flushed from memory with lastUsedAt; days older than 30 are deleted. */
export const apiKeyUsage = pgTable(
  'api_key_usage',
  {
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id),
    day: date('day', { mode: 'string' }).notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.day] }), index('api_key_usage_day_idx').on(t.day)],
);

export type SubscriptionTarget =
  | { kind: 'https'; url: string; timeoutSeconds: number }
  | { kind: 'workflow'; workflowId: string }
  | { kind: string; [field: string]: unknown };

export type DeliveryError = { at: string; class: string; message: string; status: number };

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: id(),
    ...inProject(),
    queueId: uuid('queue_id')
      .notNull()
      .references(() => queues.id),
    slug: text('slug').notNull().unique(),
    state: text('state').notNull(),
    batchSize: integer('batch_size').notNull(),
    maxConcurrency: integer('max_concurrency').notNull(),
    target: jsonb('target').$type<SubscriptionTarget>().notNull(),
    health: text('health').notNull().default('healthy'),
    lastError: jsonb('last_error').$type<DeliveryError | null>(),
    lastSuccessAt: ts('last_success_at'),
    // Failed attempts since the last success: `health` turns failing at 3. `healthTurnXid` is the transaction that
    // last turned it, so the one record that makes a turn knows it did (and sends its event once).
    consecutiveFailures: integer('consecutive_failures').notNull().default(0),
    healthTurnXid: bigint('health_turn_xid', { mode: 'number' }),
    retryMaxAttempts: integer('retry_max_attempts').notNull().default(5),
    retryMinBackoffSeconds: integer('retry_min_backoff_seconds').notNull().default(10),
    retryMaxBackoffSeconds: integer('retry_max_backoff_seconds').notNull().default(600),
    // Sealed (lib/crypto/secret-box.ts); after a rotation the old one signs beside it until previousSecretUntil.
    // Null only for a subscription made before deliveries existed: it delivers once a secret is rotated in.
    secretBox: text('secret_box'),
    previousSecretBox: text('previous_secret_box'),
    previousSecretUntil: ts('previous_secret_until'),
    // The last claim that leased its messages: claims serve the subscriptions waited on longest first.
    claimedAt: ts('claimed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('subscriptions_queue_idx').on(t.queueId),
    index('subscriptions_project_idx').on(t.organizationId, t.projectId, t.createdAt, t.id),
    check('subscriptions_batch_size_ck', sql`${t.batchSize} between 1 and 10`),
    check('subscriptions_max_concurrency_ck', sql`${t.maxConcurrency} between 1 and 100`),
    check(
      'subscriptions_retry_ck',
      sql`${t.retryMaxAttempts} between 1 and 100 and ${t.retryMinBackoffSeconds} between 0 and 600 and ${t.retryMaxBackoffSeconds} between 1 and 3600`,
    ),
  ],
);

export const silences = pgTable(
  'silences',
  {
    id: id(),
    ...inProject(),
    slug: text('slug').notNull().unique(),
    comment: text('comment').notNull(),
    matchers: jsonb('matchers').$type<StoredMatcher[]>().notNull(),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    createdByType: text('created_by_type', { enum: ['user', 'bot'] }).notNull(),
    createdById: uuid('created_by_id').notNull(),
    updatedByType: text('updated_by_type', { enum: ['user', 'bot'] }).notNull(),
    updatedById: uuid('updated_by_id').notNull(),
    version: integer('version').notNull().default(1),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    // How many unresolved alerts it matches (links in alert_silences), kept as either changes: the list's `mutedAlerts`.
    matchedAlerts: integer('matched_alerts').notNull().default(0),
    /**
     * What `q` searches: the comment and each matcher's label and value, one per line (migrations 0010, 0016;
     * computed in PL/pgSQL since 0017).
     */
    searchText: text('search_text').generatedAlwaysAs(sql`silence_search_text(comment, matchers)`),
  },
  (t) => [
    index('silences_project_idx').on(t.organizationId, t.projectId, t.createdAt, t.id),
    // `state=scheduled|active` and their counts read the few silences that have not ended, not the expired.
    index('silences_project_ends_idx').on(t.organizationId, t.projectId, t.endsAt),
    // The list's `q`: a part of the comment or of a matcher's label or value. New rows' trigrams wait in a pending
    // list of 64 kB, which every search reads and an edit appends to (migration 0017).
    index('silences_search_text_idx')
      .using('gin', sql`${t.searchText} gin_trgm_ops`)
      .with({ fastupdate: true, gin_pending_list_limit: 64 }),
    check('silences_window_ck', sql`${t.endsAt} >= ${t.startsAt}`),
  ],
);

/** Each project's number of silences, kept by triggers on `silences` (migration 0012): the tab counts' total. */
export const silenceTotals = pgTable(
  'silence_totals',
  {
    organizationId: uuid('organization_id').notNull(),
    projectId: uuid('project_id').notNull(),
    total: bigint('total', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'silence_totals_pkey', columns: [t.organizationId, t.projectId] })],
);

export const idempotencyRecords = pgTable(
  'idempotency_records',
  {
    id: id(),
    organizationId: organizationRef(),
    // "user:<uuid>" or "bot:<uuid>": a key is scoped to the principal, not to the credential.
    principal: text('principal').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    key: text('key').notNull(),
    fingerprint: text('fingerprint').notNull(),
    state: text('state', { enum: ['in_progress', 'done'] }).notNull(),
    responseStatus: integer('response_status'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    responseBody: text('response_body'),
    createdAt: ts('created_at').notNull().defaultNow(),
    // A stuck in_progress record (a crashed instance) can be taken over after this instant.
    lockedUntil: ts('locked_until'),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('idempotency_records_key_idx').on(t.principal, t.method, t.path, t.key),
    index('idempotency_records_expiry_idx').on(t.expiresAt),
  ],
);

export const scimTokens = pgTable(
  'scim_tokens',
  {
    id: id(),
    organizationId: organizationRef(),
    tokenHash: text('token_hash').notNull(),
    prefix: text('prefix').notNull(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id),
    createdAt: ts('created_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [uniqueIndex('scim_tokens_hash_idx').on(t.tokenHash), index('scim_tokens_org_idx').on(t.organizationId)],
);

export const oauthDeviceCodes = pgTable(
  'oauth_device_codes',
  {
    id: id(),
    deviceCodeHash: text('device_code_hash').notNull(),
    userCode: text('user_code').notNull(),
    clientId: text('client_id').notNull(),
    clientName: text('client_name'),
    status: text('status', { enum: ['pending', 'approved', 'denied', 'used'] })
      .notNull()
      .default('pending'),
    userId: uuid('user_id').references(() => users.id),
    intervalSeconds: integer('interval_seconds').notNull().default(5),
    lastPolledAt: ts('last_polled_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [
    uniqueIndex('oauth_device_codes_hash_idx').on(t.deviceCodeHash),
    uniqueIndex('oauth_device_codes_user_code_idx').on(t.userCode),
  ],
);

export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    id: id(),
    tokenHash: text('token_hash').notNull(),
    kind: text('kind', { enum: ['access', 'refresh'] }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    // The grant both tokens of one login share, so logout revokes the pair.
    grantId: uuid('grant_id').notNull(),
    clientId: text('client_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    uniqueIndex('oauth_tokens_hash_idx').on(t.tokenHash),
    index('oauth_tokens_grant_idx').on(t.grantId),
    index('oauth_tokens_user_idx').on(t.userId),
  ],
);

/**
 * The audit log: one row per change, chained per organization by `hash` (lib/audit/chain.ts). Only the
 * jsonb documents and scalar columns here enter the hash, so editing any of them breaks verification.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: uuid('id').primaryKey(),
    organizationId: organizationRef(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    occurredAt: ts('occurred_at').notNull(),
    action: text('action').notNull(),
    actor: jsonb('actor').$type<AuditActor>().notNull(),
    target: jsonb('target').$type<AuditTarget>().notNull(),
    projectId: uuid('project_id'),
    changes: jsonb('changes').$type<AuditChange[]>().notNull(),
    reason: text('reason'),
    context: jsonb('context').$type<AuditContext>().notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    uniqueIndex('audit_events_org_seq_idx').on(t.organizationId, t.seq),
    index('audit_events_org_time_idx').on(t.organizationId, t.occurredAt),
  ],
);

/**
 * One row per organization: the newest event's seq and hash. Writers update it first, so they serialize
 * per organization; `pruned*` is the retention checkpoint (the last deleted event) verification starts from.
 */
export const auditChainHeads = pgTable('audit_chain_heads', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
  prunedSeq: bigint('pruned_seq', { mode: 'number' }).notNull().default(0),
  prunedHash: text('pruned_hash').notNull().default(''),
});

/**
 * The newest verified prefix of each organization's chain: the event at `seq` had `hash` when a verification
 * reached it, so the next verification re-hashes only what came after (and checks that row kept its hash).
 */
export const auditCheckpoints = pgTable('audit_checkpoints', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
  verifiedAt: ts('verified_at').notNull().defaultNow(),
  /**
   * Bumped (and seq reset to 0) by the triggers of migration 0011 whenever a stored event is updated or deleted
   * other than by retention, so a verification that read the old rows cannot save a checkpoint past the change.
   */
  generation: bigint('generation', { mode: 'number' }).notNull().default(0),
});

/**
 * Full re-verifications of an organization's chain, run as jobs by the instance that took the request; their
 * progress is stored here so any instance can report it. A running job whose lease ran out is reported failed.
 */
export const auditVerifications = pgTable(
  'audit_verifications',
  {
    id: id(),
    organizationId: organizationRef(),
    state: text('state', { enum: ['running', 'succeeded', 'failed'] }).notNull(),
    verified: bigint('verified', { mode: 'number' }).notNull().default(0),
    total: bigint('total', { mode: 'number' }).notNull(),
    firstBrokenSeq: bigint('first_broken_seq', { mode: 'number' }),
    error: text('error'),
    startedAt: ts('started_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
    leaseUntil: ts('lease_until').notNull(),
  },
  (t) => [
    index('audit_verifications_org_started_idx').on(t.organizationId, t.startedAt),
    uniqueIndex('audit_verifications_one_running_idx')
      .on(t.organizationId)
      .where(sql`${t.state} = 'running'`),
  ],
);

/** rate-limiter-flexible's PostgreSQL store (its own column layout), shared by every instance. */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  expire: bigint('expire', { mode: 'number' }),
});

/**
 * One row, bumped in every transaction that takes access away (revocation, removal, suspension, sign-out).
 * An instance may answer from its authentication caches only while this still reads what it cached under.
 */
export const authEpoch = pgTable('auth_epoch', {
  id: integer('id').primaryKey(),
  epoch: bigint('epoch', { mode: 'number' }).notNull(),
});

/** Sessions ended by signing out, kept until the session would have expired anyway. */
export const endedSessions = pgTable(
  'ended_sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: ts('expires_at').notNull(),
  },
  (t) => [index('ended_sessions_expires_idx').on(t.expiresAt)],
);

export * from './second-factor-schema';
export * from './notification-schema';
export * from './onboarding-schema';
export * from './alert-schema';
export * from './queue-schema';
