import { otherMethods } from '@/lib/pipeline/methods';
import { listLeakNotices } from '@/lib/api-keys/leak-service';
import { listApiKeyLeaksOp } from '@/lib/api-keys/operations';
import { json, route } from '@/lib/pipeline/route';

export const GET = route(listApiKeyLeaksOp, async ({ params, principal, can }) => {
  const everyone = await can('apiKeys.list');
  return json({ items: await listLeakNotices(params.orgId, everyone ? null : principal) });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(listApiKeyLeaksOp);
