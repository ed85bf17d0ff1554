import { createApiKeyOp, listApiKeysOp } from '@/lib/api-keys/operations';
import { listApiKeys } from '@/lib/api-keys/list-service';
import { createApiKey } from '@/lib/api-keys/service';
import { json, route } from '@/lib/pipeline/route';
import { otherMethods } from '@/lib/pipeline/methods';

export const POST = route(createApiKeyOp, async ({ params, body, principal, audit }) => {
  const created = await createApiKey(params.orgId, principal, body, audit);
  return json(created, { status: 201, headers: { 'cache-control': 'no-store' } });
});

export const GET = route(listApiKeysOp, async ({ params, query, principal, can }) => {
  const own = { type: principal.type, id: principal.id };
  const everyone = query.owner !== 'me' && (await can('apiKeys.list'));
  return json(await listApiKeys(params.orgId, everyone ? null : own, query));
});

export const { PUT, PATCH, DELETE } = otherMethods(createApiKeyOp, listApiKeysOp);
