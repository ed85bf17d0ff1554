// Shared by unit tests and the e2e fixtures (no vitest here): rows no API makes on demand.
import { getDb } from '../../lib/db/client';
import * as t from '../../lib/db/schema';

type MessageFate = Partial<Omit<typeof t.subscriptionMessages.$inferInsert, 'subscriptionId' | 'messageId'>>;

/**
 * Messages published to a subscription's queue, one per item of `fates`, each with that subscription's row of it
 * (pending and due now unless the item says otherwise): backlogs and dead letters without a publisher or an engine.
 */
export async function insertTestMessages(
  sub: { id: string; organizationId: string; queueId: string },
  fates: MessageFate[],
  publishedAt = new Date(),
) {
  const db = await getDb();
  const messages = await db
    .insert(t.queueMessages)
    .values(
      fates.map((_, i) => ({
        organizationId: sub.organizationId,
        queueId: sub.queueId,
        body: { n: i },
        attributes: { n: String(i) },
        publishedAt: new Date(publishedAt.getTime() + i),
      })),
    )
    .returning();
  await db.insert(t.subscriptionMessages).values(
    messages.map((m, i) => ({
      subscriptionId: sub.id,
      messageId: m.id,
      availableAt: m.publishedAt,
      publishedAt: m.publishedAt,
      ...fates[i],
    })),
  );
  return messages;
}
