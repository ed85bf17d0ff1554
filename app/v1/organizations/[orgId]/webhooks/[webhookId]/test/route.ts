import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { testWebhookOp } from '@/lib/webhooks/operations';
import { queueTestEvent } from '@/lib/webhooks/service';

export const POST = route(testWebhookOp, async ({ params }) => {
  await queueTestEvent(params.orgId, params.webhookId);
  return json(undefined, { status: 202 });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(testWebhookOp);
