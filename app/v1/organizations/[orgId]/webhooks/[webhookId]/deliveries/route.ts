import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { listWebhookDeliveriesOp } from '@/lib/webhooks/operations';
import { listWebhookAttempts } from '@/lib/webhooks/service';

export const GET = route(listWebhookDeliveriesOp, async ({ params, query }) =>
  json(await listWebhookAttempts(params.orgId, params.webhookId, query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(listWebhookDeliveriesOp);
