import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { rotateWebhookSecretOp } from '@/lib/webhooks/operations';
import { rotateWebhookSecret } from '@/lib/webhooks/service';

export const POST = route(rotateWebhookSecretOp, async ({ params, audit }) =>
  json(await rotateWebhookSecret(params.orgId, params.webhookId, audit), { headers: { 'cache-control': 'no-store' } }),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(rotateWebhookSecretOp);
