import { otherMethods } from '@/lib/pipeline/methods';
import { apiKeyAccessOp } from '@/lib/api-keys/operations';
import { apiKeyAccess } from '@/lib/api-keys/access-service';
import { idNotFound } from '@/lib/errors';
import { json, route } from '@/lib/pipeline/route';

export const GET = route(apiKeyAccessOp, async ({ params }) => {
  const access = await apiKeyAccess(params.orgId, params.keyId);
  if (!access) throw idNotFound('API key', params.keyId);
  return json(access);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(apiKeyAccessOp);
