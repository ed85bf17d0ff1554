import { randomBytes, randomUUID } from 'node:crypto';
import { sealSecret } from '../../lib/crypto/secret-box';
import { getDb } from '../../lib/db/client';
import * as t from '../../lib/db/schema';
import { secretContext } from '../../lib/webhooks/service';
import { newTestProject } from './test-database';

/**
 * A webhook endpoint of a new project posting to `url`, with its signing secret sealed as the app seals it, and one
 * delivery of a `webhook.test` message due now; `values` overrides any column of the delivery.
 */
export async function insertDueWebhookDelivery(
  url: string,
  values: Partial<typeof t.webhookDeliveries.$inferInsert> = {},
) {
  const { db, scope } = await newTestProject('Webhook delivery');
  const webhookId = randomUUID();
  await db.insert(t.webhooks).values({
    id: webhookId,
    organizationId: scope.organizationId,
    url,
    events: ['*'],
    secretBox: sealSecret(`whsec_${randomBytes(32).toString('base64')}`, secretContext(webhookId)),
  });
  const delivery = await insertWebhookDelivery(scope.organizationId, webhookId, values);
  return { db, scope, webhookId, delivery };
}

/** One more delivery of a `webhook.test` message to the endpoint, due now unless `values` says otherwise. */
export async function insertWebhookDelivery(
  organizationId: string,
  webhookId: string,
  values: Partial<typeof t.webhookDeliveries.$inferInsert> = {},
) {
  const [delivery] = await (
    await getDb()
  )
    .insert(t.webhookDeliveries)
    .values({
      organizationId,
      webhookId,
      messageId: randomUUID(),
      eventType: 'webhook.test',
      payload: { test: true },
      nextAttemptAt: new Date(Date.now() - 1_000),
      ...values,
    })
    .returning();
  return delivery;
}
