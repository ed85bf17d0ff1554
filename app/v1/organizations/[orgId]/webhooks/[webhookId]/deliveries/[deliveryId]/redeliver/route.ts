import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { redeliverWebhookOp } from '@/lib/webhooks/operations';
import { redeliver } from '@/lib/webhooks/service';

export const POST = route(redeliverWebhookOp, async ({ params }) => {
  await redeliver(params.orgId, params.webhookId, params.deliveryId);
  return json(undefined, { status: 202 });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(redeliverWebhookOp);
