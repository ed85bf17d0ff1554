import { otherMethods } from '@/lib/pipeline/methods';
import { apiKeyAccessOp } from '@/lib/api-keys/operations';
import { apiKeyAccess } from '@/lib/api-keys/access-service';
import { isOwner } from '@/lib/api-keys/ownership';
import { findApiKeyOwner } from '@/lib/api-keys/service';
import { notFound } from '@/lib/errors';
import { json, route } from '@/lib/pipeline/route';

export const GET = route(apiKeyAccessOp, async ({ params, principal, authorize }) => {
  const owner = await findApiKeyOwner(params.orgId, params.keyId);
  if (!owner) throw notFound('No such API key.');
  if (!isOwner(owner, principal)) await authorize('apiKeys.list');
  const access = await apiKeyAccess(params.orgId, params.keyId);
  if (!access) throw notFound('No such API key.');
  return json(access);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(apiKeyAccessOp);
