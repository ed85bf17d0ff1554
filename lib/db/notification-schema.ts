import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { apiKeys, organizations, users } from './schema';
import { id, ts } from './columns';

/** An organization's webhook endpoint. Signing secrets are sealed (lib/crypto/secret-box.ts), never plain. */
export const webhooks = pgTable(
  'webhooks',
  {
    id: id(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    // Audit actions (`api_key.revoked`) or noun patterns (`api_key.*`, `*`), matched in the outbox insert.
    events: text('events').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    secretBox: text('secret_box').notNull(),
    // After a rotation the old secret signs too, as a second signature, until previousSecretUntil.
    previousSecretBox: text('previous_secret_box'),
    previousSecretUntil: ts('previous_secret_until'),
    disabledReason: text('disabled_reason'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('webhooks_org_idx').on(t.organizationId, t.createdAt, t.id)],
);

/**
 * The outbox: one message (an audit event, or a test) for one endpoint, written in the transaction of the
 * change. Pending rows due at `next_attempt_at` are claimed by a worker (lease `locked_until`).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    organizationId: uuid('organization_id').notNull(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    // The `webhook-id` header: the audit event's id, the same on every attempt.
    messageId: uuid('message_id').notNull(),
    eventType: text('event_type').notNull(),
    // Only for messages that are no audit event (`webhook.test`); otherwise the event is read at send time.
    payload: jsonb('payload'),
    attempts: integer('attempts').notNull().default(0),
    // The attempt a retry schedule counts from: a redelivery starts the schedule again.
    scheduleFrom: integer('schedule_from').notNull().default(0),
    state: text('state', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    nextAttemptAt: ts('next_attempt_at'),
    lockedUntil: ts('locked_until'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_message_idx').on(t.webhookId, t.messageId),
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.state} = 'pending'`),
  ],
);

/** One HTTP attempt of a delivery: the endpoint's delivery log. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: id(),
    organizationId: uuid('organization_id').notNull(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    status: integer('status'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    at: ts('at').notNull(),
    nextAttemptAt: ts('next_attempt_at'),
  },
  (t) => [
    index('webhook_attempts_webhook_idx').on(t.webhookId, t.at, t.id),
    uniqueIndex('webhook_attempts_once_idx').on(t.deliveryId, t.attempt),
  ],
);

/** A message to one user: listed in the console, and emailed when SMTP_URL is set (`email_state`). */
export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    organizationId: uuid('organization_id').references(() => organizations.id),
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    emailState: text('email_state', { enum: ['pending', 'sent', 'failed', 'none'] })
      .notNull()
      .default('none'),
    emailAttempts: integer('email_attempts').notNull().default(0),
    // A sender's lease on a pending email, so two instances never send the same one.
    emailLockedUntil: ts('email_locked_until'),
    readAt: ts('read_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.createdAt, t.id),
    index('notifications_email_due_idx')
      .on(t.createdAt)
      .where(sql`${t.emailState} = 'pending'`),
  ],
);

/** A user's choice per kind; no row means the kind's default (on). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    enabled: boolean('enabled').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/** Expiry reminders already sent: the primary key makes each one happen once, whichever instance runs it. */
export const keyExpiryReminders = pgTable(
  'key_expiry_reminders',
  {
    keyId: uuid('key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    daysBefore: integer('days_before').notNull(),
    sentAt: ts('sent_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.daysBefore] })],
);
