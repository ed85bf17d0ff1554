import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { redeliverWebhookOp } from '@/lib/webhooks/operations';
import { redeliver } from '@/lib/webhooks/service';

export const POST = route(redeliverWebhookOp, async ({ params }) => {
  await redeliver(params.orgId, params.webhookId, params.deliveryId);
  return json(undefined, { status: 202 });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(redeliverWebhookOp);
