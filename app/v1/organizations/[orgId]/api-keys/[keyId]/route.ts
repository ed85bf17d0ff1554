import { revokeApiKeyOp } from '@/lib/api-keys/operations';
import { findApiKeyOwner, revokeApiKey } from '@/lib/api-keys/service';
import { notFound } from '@/lib/errors';
import { noContent, route } from '@/lib/pipeline/route';
import { otherMethods } from '@/lib/pipeline/methods';

export const DELETE = route(revokeApiKeyOp, async ({ params, principal, authorize, audit }) => {
  const owner = await findApiKeyOwner(params.orgId, params.keyId);
  if (!owner) throw notFound('No such API key.');
  if (owner.type !== principal.type || owner.id !== principal.id) await authorize('apiKeys.delete');
  await revokeApiKey(params.orgId, params.keyId, principal, audit);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods(revokeApiKeyOp);
