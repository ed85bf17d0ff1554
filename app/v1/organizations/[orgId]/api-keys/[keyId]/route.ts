import { revokeApiKeyOp, updateApiKeyOp } from '@/lib/api-keys/operations';
import { isOwner } from '@/lib/api-keys/ownership';
import { findApiKeyOwner, revokeApiKey } from '@/lib/api-keys/service';
import { updateApiKeyRestrictions } from '@/lib/api-keys/update-service';
import { ApiError, notFound } from '@/lib/errors';
import { json, noContent, route } from '@/lib/pipeline/route';
import { otherMethods } from '@/lib/pipeline/methods';

export const DELETE = route(revokeApiKeyOp, async ({ params, principal, authorize, audit }) => {
  const owner = await findApiKeyOwner(params.orgId, params.keyId);
  if (!owner) throw notFound('No such API key.');
  if (owner.type !== principal.type || owner.id !== principal.id) await authorize('apiKeys.delete');
  await revokeApiKey(params.orgId, params.keyId, principal, audit);
  return noContent();
});

export const PATCH = route(updateApiKeyOp, async ({ params, body, principal, authorize, audit }) => {
  const owner = await findApiKeyOwner(params.orgId, params.keyId);
  if (!owner) throw notFound('No such API key.');
  // As creating a key for that owner: nobody changes another user's key; a bot's needs bots.createApiKey.
  if (owner.type === 'bot') await authorize('bots.createApiKey');
  else if (isOwner(owner, principal)) await authorize('apiKeys.create');
  else throw new ApiError('access_denied', 'Nobody can change another user’s API key.');
  return json(await updateApiKeyRestrictions(params.orgId, params.keyId, principal, body, audit));
});

export const { GET, POST, PUT } = otherMethods(revokeApiKeyOp, updateApiKeyOp);
