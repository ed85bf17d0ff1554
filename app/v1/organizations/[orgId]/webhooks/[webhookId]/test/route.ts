import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { testWebhookOp } from '@/lib/webhooks/operations';
import { queueTestEvent } from '@/lib/webhooks/service';

export const POST = route(testWebhookOp, async ({ params }) => {
  await queueTestEvent(params.orgId, params.webhookId);
  return json(undefined, { status: 202 });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(testWebhookOp);
