import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { inProject, silences } from './schema';
import { ts } from './columns';

/**
 * An alert a project received (Alertmanager's model): one row per fingerprint of its labels, kept after it resolves
 * for `ALERT_RETENTION_SECONDS`. Resolved is `ends_at <= now`, decided by the clock at each read.
 */
export const alerts = pgTable(
  'alerts',
  {
    ...inProject(),
    fingerprint: text('fingerprint').notNull(),
    labels: jsonb('labels').$type<Record<string, string>>().notNull(),
    annotations: jsonb('annotations').$type<Record<string, string>>().notNull(),
    generatorUrl: text('generator_url').notNull().default(''),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    // The end was not sent but set to now + the resolve timeout: Alertmanager's merge treats such an end as soft.
    endsByTimeout: boolean('ends_by_timeout').notNull(),
    updatedAt: ts('updated_at').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    // When webhooks were last sent `alert.firing` for this firing; null: they hold no firing of it (never sent, or
    // `alert.resolved` sent since). lib/alerts/notify-service.ts keeps it and `audible`.
    firingNotifiedAt: ts('firing_notified_at'),
    // Unresolved and muted by no active silence, as of the last decision on its notifications: a change of it to
    // true is an `alert.firing`. Kept under the project's muting lock, so each transition is decided once.
    audible: boolean('audible').notNull().default(false),
  },
  (t) => [
    primaryKey({ name: 'alerts_pkey', columns: [t.organizationId, t.projectId, t.fingerprint] }),
    // The unresolved ones (the limit, the lists, muting) and the resolved ones past their retention.
    index('alerts_project_ends_idx').on(t.organizationId, t.projectId, t.endsAt),
    // The /v1 list's keyset order, newest first.
    index('alerts_project_starts_idx').on(t.organizationId, t.projectId, t.startsAt, t.fingerprint),
    // The /v1 list filtered by `alertname="X"` (what most filters name), in the list's order: a page reads its rows
    // and stops, where the GIN index below gives every match to sort.
    index('alerts_alertname_idx').on(
      t.organizationId,
      t.projectId,
      sql`(${t.labels} ->> 'alertname')`,
      t.startsAt,
      t.fingerprint,
    ),
    // A silence's `=` matchers narrow the alerts it is tested against (`labels @> {...}`).
    index('alerts_labels_idx').using('gin', sql`${t.labels} jsonb_path_ops`),
    // The clock's notifications: alerts that resolved by the clock and whose state still says otherwise.
    index('alerts_notify_due_idx')
      .on(t.endsAt)
      .where(sql`${t.audible} or ${t.firingNotifiedAt} is not null`),
    check('alerts_window_ck', sql`${t.endsAt} >= ${t.startsAt}`),
  ],
);

/**
 * Which silences that have not ended match which alerts, kept as either changes (lib/alerts/muting-service.ts) so
 * that no read tests every alert against every silence: an alert is muted now when one linked silence is active.
 */
export const alertSilences = pgTable(
  'alert_silences',
  {
    organizationId: uuid('organization_id').notNull(),
    projectId: uuid('project_id').notNull(),
    fingerprint: text('fingerprint').notNull(),
    silenceId: uuid('silence_id').notNull(),
  },
  (t) => [
    primaryKey({ name: 'alert_silences_pkey', columns: [t.organizationId, t.projectId, t.fingerprint, t.silenceId] }),
    index('alert_silences_silence_idx').on(t.silenceId),
    foreignKey({
      name: 'alert_silences_alert_fk',
      columns: [t.organizationId, t.projectId, t.fingerprint],
      foreignColumns: [alerts.organizationId, alerts.projectId, alerts.fingerprint],
    }).onDelete('cascade'),
    foreignKey({ name: 'alert_silences_silence_fk', columns: [t.silenceId], foreignColumns: [silences.id] }).onDelete(
      'cascade',
    ),
  ],
);

/**
 * A batch with alerts refused (over a limit or invalid), so the project's Alerts page can say so: Mimir drops such
 * alerts silently; the sender's log and `svc_alerts_refused_total` are not where a project's people look.
 * Kept `ALERT_RETENTION_SECONDS`, as resolved alerts.
 */
export const alertRefusals = pgTable(
  'alert_refusals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ...inProject(),
    at: ts('at').notNull(),
    refused: integer('refused').notNull(),
    // The first refusal's reason, as the 400 said it (no label values).
    reason: text('reason').notNull(),
  },
  (t) => [index('alert_refusals_project_idx').on(t.organizationId, t.projectId, t.at)],
);

/**
 * Each project's alert epoch, a fresh random value at every write that may change which alerts are unresolved at
 * some moment still to come, or their order (the cases are listed in migration 0023, whose triggers on `alerts` keep
 * it), so that every writer bumps it, an older release's in a roll included. An instance that cached what it read of
 * those alerts (the preview's label values, lib/alerts/preview-service.ts) knows with one primary-key read whether
 * that still holds. A resend that only pushes an end later, Prometheus's steady state, leaves it alone. Random rather
 * than counted: a restored backup can never bring back a value an instance holds with other alerts.
 */
export const alertEpochs = pgTable(
  'alert_epochs',
  {
    organizationId: uuid('organization_id').notNull(),
    projectId: uuid('project_id').notNull(),
    epoch: uuid('epoch').notNull(),
  },
  (t) => [primaryKey({ name: 'alert_epochs_pkey', columns: [t.organizationId, t.projectId] })],
);

/**
 * When each project's Alertmanager API last received a post of alerts, stored or refused: its Alerts page says so,
 * and the organization's guided start counts a sender as connected. Written at most every few seconds per project
 * and instance (lib/alerts/posts-service.ts), so a sender's resends cost no statement each.
 */
export const alertPosts = pgTable(
  'alert_posts',
  {
    ...inProject(),
    lastAt: ts('last_at').notNull(),
  },
  (t) => [primaryKey({ name: 'alert_posts_pkey', columns: [t.organizationId, t.projectId] })],
);
