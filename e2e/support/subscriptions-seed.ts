import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../lib/db/client';
import * as t from '../../lib/db/schema';
import { queueValues, subscriptionValues } from '../../server/demo/seed';
import { insertTestMessages } from '../../server/testing/queue-messages';
import { SEEDED_DELIVERY } from './seeded-delivery';

/** What no API makes on demand: a subscription with dead letters, a backlog and a delivery, for its tests alone. */
export type DeadLetterFixture = { subscriptionId: string; queueId: string; deadLetterIds: string[] };

const QUEUE = 'e2e-dead-letters';
const MINUTE = 60_000;

/**
 * In Acme/Staging, a queue of its own and a paused workflow subscription of it (so nothing is ever sent, even after
 * a redrive): three dead letters, one ready message, one delayed, and one failed delivery. Two test servers on one
 * PostgreSQL both prepare it: the second reuses the first's.
 */
export async function seedDeadLetterFixture(db: Db): Promise<DeadLetterFixture> {
  const [staging] = await db
    .select({ organizationId: t.projects.organizationId, projectId: t.projects.id })
    .from(t.projects)
    .innerJoin(t.organizations, eq(t.organizations.id, t.projects.organizationId))
    .where(and(eq(t.organizations.name, 'Acme'), eq(t.projects.name, 'Staging')));
  const [existing] = await db
    .select({ queueId: t.queues.id, subscriptionId: t.subscriptions.id })
    .from(t.queues)
    .innerJoin(t.subscriptions, eq(t.subscriptions.queueId, t.queues.id))
    .where(and(eq(t.queues.projectId, staging.projectId), eq(t.queues.name, QUEUE)));
  if (existing) {
    const dead = await db
      .select({ id: t.subscriptionMessages.messageId })
      .from(t.subscriptionMessages)
      .where(
        and(
          eq(t.subscriptionMessages.subscriptionId, existing.subscriptionId),
          eq(t.subscriptionMessages.state, 'dead'),
        ),
      )
      .orderBy(asc(t.subscriptionMessages.deadLetteredAt));
    return { ...existing, deadLetterIds: dead.map((d) => d.id) };
  }
  const [queue] = await db.insert(t.queues).values(queueValues(staging, QUEUE)).returning();
  const [sub] = await db
    .insert(t.subscriptions)
    .values(
      subscriptionValues(
        { ...staging, queueId: queue.id },
        { state: 'paused', target: { kind: 'workflow', workflowId: randomUUID() } },
      ),
    )
    .returning();
  const now = Date.now();
  const lastError = {
    at: new Date(now - MINUTE).toISOString(),
    class: 'http',
    message: 'Target answered 500',
    status: 500,
  };
  const dead = (minutesAgo: number) => ({
    state: 'dead' as const,
    attempts: 5,
    lastError,
    deadLetteredAt: new Date(now - minutesAgo * MINUTE),
  });
  const messages = await insertTestMessages(
    sub,
    [dead(3), dead(2), dead(1), {}, { availableAt: new Date(now + 3_600_000), attempts: 1, lastError }],
    new Date(now - 10 * MINUTE),
  );
  await db.insert(t.subscriptionDeliveries).values({
    organizationId: sub.organizationId,
    subscriptionId: sub.id,
    startedAt: new Date(now - MINUTE),
    leaseUntil: new Date(now - MINUTE + 30_000),
    finishedAt: new Date(now - MINUTE + SEEDED_DELIVERY.durationMs),
    ...SEEDED_DELIVERY,
  });
  return { subscriptionId: sub.id, queueId: queue.id, deadLetterIds: messages.slice(0, 3).map((m) => m.id) };
}
