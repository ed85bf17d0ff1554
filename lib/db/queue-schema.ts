import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { id, ts } from './columns';
import { inProject, subscriptions, type DeliveryError } from './schema';

/** A project's queue: what publishers send to and subscriptions read from. */
export const queues = pgTable(
  'queues',
  {
    id: id(),
    ...inProject(),
    name: text('name').notNull(),
    slug: text('slug').notNull().unique(),
    retentionSeconds: integer('retention_seconds').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('queues_name_idx').on(t.organizationId, t.projectId, t.name),
    index('queues_project_idx').on(t.organizationId, t.projectId, t.createdAt, t.id),
    check('queues_retention_ck', sql`${t.retentionSeconds} between 60 and 1209600`),
  ],
);

/** A published message, stored once for its queue; each subscription's copy of its fate is a subscription_messages row. */
export const queueMessages = pgTable(
  'queue_messages',
  {
    id: id(),
    organizationId: uuid('organization_id').notNull(),
    queueId: uuid('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    body: jsonb('body').notNull(),
    attributes: jsonb('attributes').$type<Record<string, string>>().notNull(),
    publishedAt: ts('published_at').notNull(),
  },
  (t) => [index('queue_messages_queue_idx').on(t.queueId, t.publishedAt)],
);

/**
 * One message for one subscription until it leaves (delivered, expired, discarded). `pending`: ready when
 * `available_at` has passed and no live lease holds it; leased (in flight) while `delivery_id` is set and
 * `available_at` (the lease's end) is ahead; a lease that ran out makes it ready again. `dead`: dead-lettered.
 */
export const subscriptionMessages = pgTable(
  'subscription_messages',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    messageId: uuid('message_id')
      .notNull()
      .references(() => queueMessages.id, { onDelete: 'cascade' }),
    state: text('state', { enum: ['pending', 'dead'] })
      .notNull()
      .default('pending'),
    availableAt: ts('available_at').notNull(),
    deliveryId: uuid('delivery_id'),
    // Failed attempts so far: only real attempts count (a 410's pause or a lost lease does not).
    attempts: integer('attempts').notNull().default(0),
    publishedAt: ts('published_at').notNull(),
    lastError: jsonb('last_error').$type<DeliveryError | null>(),
    // When it was dead-lettered, or (pending again) redriven: its retention counts from then.
    deadLetteredAt: ts('dead_lettered_at'),
  },
  (t) => [
    primaryKey({ name: 'subscription_messages_pkey', columns: [t.subscriptionId, t.messageId] }),
    index('subscription_messages_ready_idx')
      .on(t.subscriptionId, t.availableAt)
      .where(sql`${t.state} = 'pending'`),
    index('subscription_messages_age_idx')
      .on(t.subscriptionId, t.publishedAt)
      .where(sql`${t.state} = 'pending'`),
    index('subscription_messages_dead_idx')
      .on(t.subscriptionId, t.deadLetteredAt, t.messageId)
      .where(sql`${t.state} = 'dead'`),
    index('subscription_messages_delivery_idx')
      .on(t.deliveryId)
      .where(sql`${t.deliveryId} is not null`),
    index('subscription_messages_message_idx').on(t.messageId),
  ],
);

/** Each subscription's undelivered messages, kept by triggers on subscription_messages: the backlog quota's count. */
export const subscriptionBacklogs = pgTable('subscription_backlogs', {
  subscriptionId: uuid('subscription_id').primaryKey(),
  pending: bigint('pending', { mode: 'number' }).notNull().default(0),
  dead: bigint('dead', { mode: 'number' }).notNull().default(0),
});

/**
 * One POST of a batch to a subscription's target. In flight while `finished_at` is null and the lease
 * (`lease_until`) holds; kept a day for the deliveries list.
 */
export const subscriptionDeliveries = pgTable(
  'subscription_deliveries',
  {
    id: id(),
    organizationId: uuid('organization_id').notNull(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    startedAt: ts('started_at').notNull(),
    leaseUntil: ts('lease_until').notNull(),
    finishedAt: ts('finished_at'),
    messages: integer('messages').notNull(),
    // delivered | partial | failed | paused (a 410) | released (handed back unsent); null while in flight.
    outcome: text('outcome'),
    status: integer('status'),
    durationMs: integer('duration_ms'),
    errorClass: text('error_class'),
    errorMessage: text('error_message'),
  },
  (t) => [
    index('subscription_deliveries_in_flight_idx')
      .on(t.subscriptionId, t.leaseUntil)
      .where(sql`${t.finishedAt} is null`),
    index('subscription_deliveries_list_idx').on(t.subscriptionId, t.startedAt, t.id),
    index('subscription_deliveries_started_idx').on(t.startedAt),
  ],
);

/** Per subscription and minute, what left or failed: the activity chart's last hour. */
export const subscriptionMinutes = pgTable(
  'subscription_minutes',
  {
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => subscriptions.id, { onDelete: 'cascade' }),
    minute: ts('minute').notNull(),
    delivered: integer('delivered').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    deadLettered: integer('dead_lettered').notNull().default(0),
    expired: integer('expired').notNull().default(0),
  },
  (t) => [
    primaryKey({ name: 'subscription_minutes_pkey', columns: [t.subscriptionId, t.minute] }),
    index('subscription_minutes_minute_idx').on(t.minute),
  ],
);
