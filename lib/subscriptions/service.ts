import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { changesBetween } from '../audit/changes';
import { projectResourceEvent } from '../audit/project-event';
import { auditEventCtes, recordAuditEvent, statementValue } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { getDb, preparedStatement, runStatement, type Tx } from '../db/client';
import { projectResourceWhere, rowOf, StatementValues, projectWhere } from '../db/statement';
import * as t from '../db/schema';
import { invalidRequest, notFound, type Issue } from '../errors';
import { mapPage, pageInCreationOrder } from '../http/page-rows';
import type { Page, PageQuery } from '../http/pagination';
import type { Subscription, SubscriptionUpdate } from './schema';
import { mergeTarget } from './target';
import { mergeRetryPolicy, retryColumns, retryPolicyOf } from './retry-policy';
import { auditEventsWritten } from '../observability/metrics';

type Row = typeof t.subscriptions.$inferSelect;
export type SubscriptionScope = { organizationId: string; projectId: string };

function isoOrNull(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The full resource of the spec, `status` always present, times as `YYYY-MM-DDTHH:MM:SS.mmmZ`. */
export function toSubscription(row: Row): Subscription {
  const lastError = row.lastError ? { ...row.lastError, at: isoOrNull(row.lastError.at) ?? row.lastError.at } : null;
  return {
    id: row.id,
    organizationId: row.organizationId,
    projectId: row.projectId,
    queueId: row.queueId,
    resourceName: `organizations/${row.organizationId}/projects/${row.projectId}/subscriptions/${row.id}`,
    slug: row.slug,
    state: row.state as Subscription['state'],
    batchSize: row.batchSize,
    maxConcurrency: row.maxConcurrency,
    target: row.target as Subscription['target'],
    retryPolicy: retryPolicyOf(row),
    status: { health: row.health, lastError, lastSuccessAt: isoOrNull(row.lastSuccessAt) },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One subscription by id, only within the caller's organization and project. */
export const oneSubscription = (scope: SubscriptionScope, id: string) =>
  and(eq(t.subscriptions.id, id), projectWhere(t.subscriptions, scope));

export async function listSubscriptions(scope: SubscriptionScope, page: PageQuery): Promise<Page<Subscription>> {
  return mapPage(
    await pageInCreationOrder(t.subscriptions, projectWhere(t.subscriptions, scope), page),
    toSubscription,
  );
}

// The read behind every GET of one subscription: built once, a named statement on both databases.
const getSubscriptionStatement = preparedStatement((db) =>
  db.select().from(t.subscriptions).where(projectResourceWhere(t.subscriptions)).prepare('subscriptions_get'),
);

/** One subscription of the project; another project's or organization's is 404 like an unknown one. */
export async function getSubscription(scope: SubscriptionScope, id: string): Promise<Subscription> {
  const [row] = await (await getSubscriptionStatement()).execute({ ...scope, id });
  if (!row) throw notFound('Subscription not found.');
  return toSubscription(row);
}

/**
 * "Change a subscription" in one transaction: lock the row, check what needs the current resource
 * (the target's kind, the merged target and retry policy), write only what differs. Nothing differing (`{}` included)
 * writes nothing and keeps `updatedAt`.
 */
export async function updateSubscription(
  scope: SubscriptionScope,
  id: string,
  update: SubscriptionUpdate,
  source: AuditSource,
): Promise<Subscription> {
  const { target, retryPolicy } = update;
  if (!target && !retryPolicy)
    return (await changeNumbers(scope, id, update, source)) ?? updateNumbers(scope, id, update, source);
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(t.subscriptions).where(oneSubscription(scope, id)).for('update').limit(1);
    if (!row) throw notFound('Subscription not found.');

    const issues: Issue[] = [];
    const changes: Partial<Row> = {};
    if (update.batchSize !== undefined && update.batchSize !== row.batchSize) changes.batchSize = update.batchSize;
    if (update.maxConcurrency !== undefined && update.maxConcurrency !== row.maxConcurrency)
      changes.maxConcurrency = update.maxConcurrency;
    const merge = target ? mergeTarget(row.target, target) : null;
    if (merge && !merge.ok) issues.push(...merge.issues);
    else if (merge?.changed) changes.target = merge.target;
    const retry = retryPolicy ? mergeRetryPolicy(retryPolicyOf(row), retryPolicy) : null;
    if (retry && !retry.ok) issues.push(...retry.issues);
    else if (retry?.changed) Object.assign(changes, retryColumns(retry.policy));
    if (issues.length > 0) throw invalidRequest(issues);
    if (Object.keys(changes).length === 0) return toSubscription(row);

    // Strictly later than the previous value, so a change is always visible in updatedAt.
    const updatedAt = new Date(Math.max(Date.now(), row.updatedAt.getTime() + 1));
    const [updated] = await tx
      .update(t.subscriptions)
      .set({ ...changes, updatedAt })
      .where(oneSubscription(scope, id))
      .returning();
    await recordAuditEvent(
      tx,
      projectResourceEvent(source, 'subscription.updated', updated, changesBetween(editable(row), editable(updated))),
    );
    return toSubscription(updated);
  });
}

/** The fields a PATCH may change, as they appear in an event's `changes` (`target.url`, `retryPolicy.maxAttempts`). */
export const editable = (row: Row) => ({
  batchSize: row.batchSize,
  maxConcurrency: row.maxConcurrency,
  target: row.target,
  retryPolicy: retryPolicyOf(row),
});

/** The fields a PATCH may change as numbers, by their column in `subscriptions`. */
const NUMBER_COLUMNS = { batchSize: 'batch_size', maxConcurrency: 'max_concurrency' } as const;

/**
 * Batch size and concurrency need nothing from the current row to validate. When every field sent differs
 * from its value, the change and its audit event are one statement (no transaction around it: one round
 * trip); the CTE locks the row and keeps the values being replaced, for the event. When it matches no row
 * (unknown, or a field already at that value), `updateNumbers` answers.
 */
async function changeNumbers(
  scope: SubscriptionScope,
  id: string,
  update: SubscriptionUpdate,
  source: AuditSource,
): Promise<Subscription | null> {
  // In the order `changesBetween` gives them: by field name.
  const fields = (['batchSize', 'maxConcurrency'] as const).filter((field) => update[field] !== undefined);
  if (fields.length === 0) return null;
  const now = new Date();
  const v = new StatementValues();
  const oneSubscriptionSql = `s.id = ${v.add(id, 'uuid')} and s.organization_id = ${v.add(scope.organizationId, 'uuid')}
    and s.project_id = ${v.add(scope.projectId, 'uuid')}`;
  const sent = fields.map((field) => ({
    field,
    column: NUMBER_COLUMNS[field],
    value: v.add(update[field], 'integer'),
  }));
  const event = projectResourceEvent(
    source,
    'subscription.updated',
    { organizationId: scope.organizationId, projectId: scope.projectId, id, slug: statementValue('updated.slug') },
    fields.map((field) => ({
      field,
      from: statementValue(`updated.previous_${NUMBER_COLUMNS[field]}`),
      to: update[field],
    })),
  );
  const statement = `with previous as (
      select ${sent.map((f) => `s.${f.column}`).join(', ')} from subscriptions s where ${oneSubscriptionSql} for update
    ), updated as (
      update subscriptions s
      set ${sent.map((f) => `${f.column} = ${f.value}`).join(', ')},
        -- Strictly later than the previous value, so a change is always visible in updatedAt.
        updated_at = greatest(${v.add(now.toISOString(), 'timestamptz')}, s.updated_at + interval '1 millisecond')
      from previous
      where ${oneSubscriptionSql} and ${sent.map((f) => `s.${f.column} <> ${f.value}`).join(' and ')}
      returning s.*, ${sent.map((f) => `previous.${f.column} as previous_${f.column}`).join(', ')}
    ), ${auditEventCtes(event, v, 'updated', now)}
    select * from updated`;
  const [raw] = await runStatement<Record<string, unknown>>(statement, v.values);
  if (!raw) return null;
  auditEventsWritten.inc({ action: event.action });
  return toSubscription(rowOf(t.subscriptions, raw));
}

/**
 * The rest of a numbers-only PATCH, in one transaction: 404, nothing differing (`{}` included: no write,
 * `updatedAt` kept), or only some fields differing. Absent fields keep their value.
 */
async function updateNumbers(
  scope: SubscriptionScope,
  id: string,
  update: SubscriptionUpdate,
  source: AuditSource,
): Promise<Subscription> {
  if (update.batchSize === undefined && update.maxConcurrency === undefined) return getSubscription(scope, id);
  const db = await getDb();
  const batchSize = sql<number>`coalesce(${update.batchSize ?? null}::integer, ${t.subscriptions.batchSize})`;
  const maxConcurrency = sql<number>`coalesce(${update.maxConcurrency ?? null}::integer, ${t.subscriptions.maxConcurrency})`;
  return db.transaction(async (tx) => {
    const previous = tx.$with('previous').as(
      tx
        .select({
          previousBatchSize: sql<number>`${t.subscriptions.batchSize}`.as('previous_batch_size'),
          previousMaxConcurrency: sql<number>`${t.subscriptions.maxConcurrency}`.as('previous_max_concurrency'),
        })
        .from(t.subscriptions)
        .where(oneSubscription(scope, id))
        .for('update'),
    );
    const [updated] = await tx
      .with(previous)
      .update(t.subscriptions)
      .set({
        batchSize,
        maxConcurrency,
        // Strictly later than the previous value, so a change is always visible in updatedAt.
        updatedAt: sql`case when (${t.subscriptions.batchSize}, ${t.subscriptions.maxConcurrency}) is distinct from (${batchSize}, ${maxConcurrency})
        then greatest(${new Date().toISOString()}::timestamptz, ${t.subscriptions.updatedAt} + interval '1 millisecond') else ${t.subscriptions.updatedAt} end`,
      })
      .from(previous)
      .where(oneSubscription(scope, id))
      .returning({
        ...getTableColumns(t.subscriptions),
        previousBatchSize: previous.previousBatchSize,
        previousMaxConcurrency: previous.previousMaxConcurrency,
      });
    if (!updated) throw notFound('Subscription not found.');
    const { previousBatchSize, previousMaxConcurrency, ...row } = updated;
    const before = { batchSize: previousBatchSize, maxConcurrency: previousMaxConcurrency };
    const changes = changesBetween(before, { batchSize: row.batchSize, maxConcurrency: row.maxConcurrency });
    if (changes.length > 0)
      await recordAuditEvent(tx, projectResourceEvent(source, 'subscription.updated', row, changes));
    return toSubscription(row);
  });
}

/** What a state change says in the audit log: who asked (a caller, or the system for a 410) and why, if it says. */
export type StateChangeSource = AuditSource & { reason?: string };

/**
 * Moves a subscription to `state` with its audit event, in the caller's transaction. The row is locked first, so of
 * two changes at once one writes and the other finds the state already there: no write, no new `updatedAt`, no event
 * (`changed` false). Null when the subscription is not in scope.
 */
async function changeState(
  tx: Tx,
  scope: SubscriptionScope,
  id: string,
  state: 'active' | 'paused',
  { reason, ...source }: StateChangeSource,
): Promise<{ row: Row; changed: boolean } | null> {
  const [row] = await tx.select().from(t.subscriptions).where(oneSubscription(scope, id)).for('no key update').limit(1);
  if (!row) return null;
  if (row.state === state) return { row, changed: false };
  const updatedAt = new Date(Math.max(Date.now(), row.updatedAt.getTime() + 1));
  const [updated] = await tx
    .update(t.subscriptions)
    .set({ state, updatedAt })
    .where(oneSubscription(scope, id))
    .returning();
  const action = state === 'paused' ? 'subscription.paused' : 'subscription.resumed';
  const changes = [{ field: 'state', from: row.state, to: state }];
  await recordAuditEvent(tx, { ...projectResourceEvent(source, action, row, changes), reason }, updatedAt);
  return { row: updated, changed: true };
}

/**
 * The one pause: the API's (`POST …/pause`) and a 410's (in its record's transaction, by the system), each with its
 * `subscription.paused` event in the same transaction.
 */
export const pauseSubscription = (tx: Tx, scope: SubscriptionScope, id: string, source: StateChangeSource) =>
  changeState(tx, scope, id, 'paused', source);

/** The API's resume (`POST …/resume`), with its `subscription.resumed` event. */
export const resumeSubscription = (tx: Tx, scope: SubscriptionScope, id: string, source: StateChangeSource) =>
  changeState(tx, scope, id, 'active', source);

/**
 * Pause or resume, with its event, in one transaction. A subscription already in that state is answered
 * as it is: no write, no new `updatedAt`, no event.
 */
export async function setSubscriptionState(
  scope: SubscriptionScope,
  id: string,
  state: 'active' | 'paused',
  source: AuditSource,
): Promise<Subscription> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const change = state === 'paused' ? pauseSubscription : resumeSubscription;
    const changed = await change(tx, scope, id, source);
    if (!changed) throw notFound('Subscription not found.');
    return toSubscription(changed.row);
  });
}
