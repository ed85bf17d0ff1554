import { otherMethods } from '@/lib/pipeline/methods';
import { rollApiKeyOp } from '@/lib/api-keys/operations';
import { isOwner } from '@/lib/api-keys/ownership';
import { rollApiKey } from '@/lib/api-keys/roll-service';
import { findApiKeyOwner } from '@/lib/api-keys/service';
import { auditSource } from '@/lib/audit/source';
import { ApiError, notFound } from '@/lib/errors';
import { json, route } from '@/lib/pipeline/route';

export const POST = route(rollApiKeyOp, async (ctx) => {
  const { params, body, principal, authorize } = ctx;
  const owner = await findApiKeyOwner(params.orgId, params.keyId);
  if (!owner) throw notFound('No such API key.');
  // As creating a key for that owner: nobody rolls another user's key; a bot's needs bots.createApiKey.
  if (owner.type === 'bot') await authorize('bots.createApiKey');
  else if (isOwner(owner, principal)) await authorize('apiKeys.create');
  else throw new ApiError('access_denied', 'Nobody can roll another user’s API key.');
  const rolled = await rollApiKey(params.orgId, params.keyId, principal, body.gracePeriodSeconds, auditSource(ctx));
  return json(rolled, { status: 201, headers: { 'cache-control': 'no-store' } });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(rollApiKeyOp);
