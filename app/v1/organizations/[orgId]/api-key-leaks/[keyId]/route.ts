import { otherMethods } from '@/lib/pipeline/methods';
import { dismissLeakNotice, findLeakNoticeOwner } from '@/lib/api-keys/leak-service';
import { dismissApiKeyLeakOp } from '@/lib/api-keys/operations';
import { isOwner } from '@/lib/api-keys/ownership';
import { notFound } from '@/lib/errors';
import { noContent, route } from '@/lib/pipeline/route';

export const DELETE = route(dismissApiKeyLeakOp, async ({ params, principal, authorize }) => {
  const owner = await findLeakNoticeOwner(params.orgId, params.keyId);
  if (!owner) throw notFound('No such leak notice.');
  if (!isOwner(owner, principal)) await authorize('apiKeys.delete');
  await dismissLeakNotice(params.orgId, params.keyId);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods(dismissApiKeyLeakOp);
