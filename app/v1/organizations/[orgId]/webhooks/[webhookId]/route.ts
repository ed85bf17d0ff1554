import { otherMethods } from '@/lib/pipeline/methods';
import { json, noContent, route } from '@/lib/pipeline/route';
import { deleteWebhookOp, getWebhookOp, updateWebhookOp } from '@/lib/webhooks/operations';
import { deleteWebhook, getWebhook, updateWebhook } from '@/lib/webhooks/service';

export const GET = route(getWebhookOp, async ({ params }) => json(await getWebhook(params.orgId, params.webhookId)));

export const PATCH = route(updateWebhookOp, async ({ params, body, audit }) =>
  json(await updateWebhook(params.orgId, params.webhookId, body, audit)),
);

export const DELETE = route(deleteWebhookOp, async ({ params, audit }) => {
  await deleteWebhook(params.orgId, params.webhookId, audit);
  return noContent();
});

export const { POST, PUT } = otherMethods(getWebhookOp, updateWebhookOp, deleteWebhookOp);
