import { otherMethods } from '@/lib/pipeline/methods';
import { dismissLeakNotice } from '@/lib/api-keys/leak-service';
import { dismissApiKeyLeakOp } from '@/lib/api-keys/operations';
import { noContent, route } from '@/lib/pipeline/route';

export const DELETE = route(dismissApiKeyLeakOp, async ({ params }) => {
  await dismissLeakNotice(params.orgId, params.keyId);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods(dismissApiKeyLeakOp);
