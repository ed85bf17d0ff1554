import { otherMethods } from '@/lib/pipeline/methods';
import { rollApiKeyOp } from '@/lib/api-keys/operations';
import { rollApiKey } from '@/lib/api-keys/roll-service';
import { json, route } from '@/lib/pipeline/route';

export const POST = route(rollApiKeyOp, async ({ params, body, principal, audit }) => {
  const rolled = await rollApiKey(params.orgId, params.keyId, principal, body.gracePeriodSeconds, audit);
  return json(rolled, { status: 201, headers: { 'cache-control': 'no-store' } });
});

export const { GET, PUT, PATCH, DELETE } = otherMethods(rollApiKeyOp);
