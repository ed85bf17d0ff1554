import { json, route } from '@/lib/pipeline/route';
import { createScimTokenOp } from '@/lib/scim/operations';
import { createScimToken } from '@/lib/scim/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const POST = route(createScimTokenOp, async ({ params, principal, audit }) => {
  const created = await createScimToken(params.orgId, principal.type === 'user' ? principal.id : null, audit);
  return json(created, { status: 201, headers: { 'cache-control': 'no-store' } });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(createScimTokenOp);
