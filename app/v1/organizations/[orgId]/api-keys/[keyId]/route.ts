import { revokeApiKeyOp, updateApiKeyOp } from '@/lib/api-keys/operations';
import { revokeApiKey } from '@/lib/api-keys/service';
import { updateApiKeyRestrictions } from '@/lib/api-keys/update-service';
import { json, noContent, route } from '@/lib/pipeline/route';
import { otherMethods } from '@/lib/pipeline/methods';

export const DELETE = route(revokeApiKeyOp, async ({ params, principal, audit }) => {
  await revokeApiKey(params.orgId, params.keyId, principal, audit);
  return noContent();
});

export const PATCH = route(updateApiKeyOp, async ({ params, body, principal, audit }) =>
  json(await updateApiKeyRestrictions(params.orgId, params.keyId, principal, body, audit)),
);

export const { GET, POST, PUT } = otherMethods(revokeApiKeyOp, updateApiKeyOp);
