import { otherMethods } from '@/lib/pipeline/methods';
import { apiKeyUsageOp } from '@/lib/api-keys/operations';
import { isOwner } from '@/lib/api-keys/ownership';
import { findApiKeyOwner } from '@/lib/api-keys/service';
import { apiKeyUsageOf } from '@/lib/api-keys/usage-service';
import { notFound } from '@/lib/errors';
import { json, route } from '@/lib/pipeline/route';

export const GET = route(apiKeyUsageOp, async ({ params, principal, authorize }) => {
  const owner = await findApiKeyOwner(params.orgId, params.keyId);
  if (!owner) throw notFound('No such API key.');
  if (!isOwner(owner, principal)) await authorize('apiKeys.list');
  return json(await apiKeyUsageOf(params.keyId));
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(apiKeyUsageOp);
