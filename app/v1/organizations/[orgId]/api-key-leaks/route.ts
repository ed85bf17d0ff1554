import { otherMethods } from '@/lib/http/methods';
import { listLeakNotices } from '@/lib/api-keys/leak-service';
import { listApiKeyLeaksOp } from '@/lib/api-keys/operations';
import { json, route } from '@/lib/http/route';

export const GET = route(listApiKeyLeaksOp, async ({ params, principal, can }) => {
  const everyone = await can('apiKeys.list');
  return json({ items: await listLeakNotices(params.orgId, everyone ? null : principal) });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(listApiKeyLeaksOp);
