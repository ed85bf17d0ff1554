import { and, eq, sql } from 'drizzle-orm';
import { projectResourceEvent } from '../audit/project-event';
import { recordAuditEvent } from '../audit/record';
import type { AuditSource } from '../db/audit-types';
import { getDb, preparedStatement } from '../db/client';
import { projectResourceWhere, projectWhere } from '../db/statement';
import * as t from '../db/schema';
import { allocationQuotaExceeded, ApiError, notFound } from '../errors';
import { mapPage, pageInCreationOrder } from '../http/page-rows';
import type { Page, PageQuery } from '../http/pagination';
import { newSlug } from '../slug';
import { RETENTION_SECONDS, type CreateQueueBody, type Queue, type UpdateQueueBody } from './schema';
import { settings } from '../settings/settings';

type Row = typeof t.queues.$inferSelect;
export type QueueScope = { organizationId: string; projectId: string };

export const projectResourceName = (scope: QueueScope) =>
  `organizations/${scope.organizationId}/projects/${scope.projectId}`;

export function toQueue(row: Row): Queue {
  return {
    id: row.id,
    organizationId: row.organizationId,
    projectId: row.projectId,
    name: row.name,
    slug: row.slug,
    resourceName: `${projectResourceName(row)}/queues/${row.id}`,
    retentionSeconds: row.retentionSeconds,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const oneQueue = (scope: QueueScope, id: string) => and(eq(t.queues.id, id), projectWhere(t.queues, scope));

export async function listQueues(scope: QueueScope, page: PageQuery): Promise<Page<Queue>> {
  return mapPage(await pageInCreationOrder(t.queues, projectWhere(t.queues, scope), page), toQueue);
}

// The read behind every GET of one queue: built once, a named statement on both databases.
const getQueueStatement = preparedStatement((db) =>
  db.select().from(t.queues).where(projectResourceWhere(t.queues)).prepare('queues_get'),
);

/** One queue of the project; another project's or organization's is 404 like an unknown one. */
export async function getQueue(scope: QueueScope, id: string): Promise<Queue> {
  const [row] = await (await getQueueStatement()).execute({ ...scope, id });
  if (!row) throw notFound('Queue not found.');
  return toQueue(row);
}

/**
 * A queue and its `queue.created` event in one transaction. The project's row is locked first, so concurrent
 * creations in one project count one after another and the quota holds exactly, across instances; the unique
 * index on the name decides `queue_name_taken`.
 */
export async function createQueue(scope: QueueScope, body: CreateQueueBody, source: AuditSource): Promise<Queue> {
  const limit = settings().QUEUES_MAX_PER_PROJECT;
  const db = await getDb();
  return db.transaction(async (tx) => {
    // Locked first, then counted in a statement of its own: its snapshot then sees every creation that went before.
    const [project] = await tx
      .select({ id: t.projects.id })
      .from(t.projects)
      .where(and(eq(t.projects.id, scope.projectId), eq(t.projects.organizationId, scope.organizationId)))
      .for('no key update');
    if (!project) throw notFound();
    const [{ used }] = await tx
      .select({ used: sql<number>`count(*)::int` })
      .from(t.queues)
      .where(projectWhere(t.queues, scope));
    if (used >= limit)
      throw allocationQuotaExceeded(`This project has ${used} queues, the most it may have; delete one first.`, {
        id: 'queues_per_project',
        limit,
        used: used,
        scope: 'project',
        scopeResourceName: projectResourceName(scope),
      });
    const [row] = await tx
      .insert(t.queues)
      .values({
        ...scope,
        name: body.name,
        slug: newSlug('que'),
        retentionSeconds: body.retentionSeconds ?? RETENTION_SECONDS.default,
      })
      .onConflictDoNothing({ target: [t.queues.organizationId, t.queues.projectId, t.queues.name] })
      .returning();
    if (!row) throw new ApiError('queue_name_taken', `A queue of this project is already called ${body.name}.`);
    const changes = (['name', 'retentionSeconds'] as const).map((field) => ({ field, from: null, to: row[field] }));
    await recordAuditEvent(tx, projectResourceEvent(source, 'queue.created', row, changes), row.createdAt);
    return toQueue(row);
  });
}

/** A new retention with `queue.updated`; the same value writes nothing and keeps `updatedAt`. */
export async function updateQueue(
  scope: QueueScope,
  id: string,
  body: UpdateQueueBody,
  source: AuditSource,
): Promise<Queue> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(t.queues).where(oneQueue(scope, id)).for('update');
    if (!row) throw notFound('Queue not found.');
    if (row.retentionSeconds === body.retentionSeconds) return toQueue(row);
    // Strictly later than the previous value, so a change is always visible in updatedAt.
    const updatedAt = new Date(Math.max(Date.now(), row.updatedAt.getTime() + 1));
    const [updated] = await tx
      .update(t.queues)
      .set({ retentionSeconds: body.retentionSeconds, updatedAt })
      .where(oneQueue(scope, id))
      .returning();
    const changes = [{ field: 'retentionSeconds', from: row.retentionSeconds, to: updated.retentionSeconds }];
    await recordAuditEvent(tx, projectResourceEvent(source, 'queue.updated', row, changes), updatedAt);
    return toQueue(updated);
  });
}

/**
 * Deletes a queue, its messages going with it, and writes `queue.deleted`. While a subscription reads from it:
 * 409 `queue_in_use`, nothing changed. The row is locked before subscriptions are counted, so one created
 * meanwhile is either seen here or finds the queue gone.
 */
export async function deleteQueue(scope: QueueScope, id: string, source: AuditSource): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(t.queues).where(oneQueue(scope, id)).for('update');
    if (!row) throw notFound('Queue not found.');
    const [{ subscriptions }] = await tx
      .select({ subscriptions: sql<number>`count(*)::int` })
      .from(t.subscriptions)
      .where(eq(t.subscriptions.queueId, id));
    if (subscriptions > 0)
      throw new ApiError(
        'queue_in_use',
        `${subscriptions === 1 ? 'A subscription reads' : `${subscriptions} subscriptions read`} from this queue; delete ${subscriptions === 1 ? 'it' : 'them'} first. Nothing was changed.`,
      );
    await tx.delete(t.queues).where(oneQueue(scope, id));
    await recordAuditEvent(tx, projectResourceEvent(source, 'queue.deleted', row, []));
  });
}
