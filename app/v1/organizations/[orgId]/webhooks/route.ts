import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { createWebhookOp, listWebhooksOp } from '@/lib/webhooks/operations';
import { createWebhook, listWebhooks } from '@/lib/webhooks/service';

export const POST = route(createWebhookOp, async ({ params, body, audit }) =>
  json(await createWebhook(params.orgId, body, audit), { status: 201, headers: { 'cache-control': 'no-store' } }),
);

export const GET = route(listWebhooksOp, async ({ params, query }) => json(await listWebhooks(params.orgId, query)));

export const { PUT, PATCH, DELETE } = otherMethods(createWebhookOp, listWebhooksOp);
