import { currentApiKeyOp } from '@/lib/api-keys/operations';
import { describeCurrentKey } from '@/lib/api-keys/current-service';
import { clientAddress } from '@/lib/http/public-origin';
import { json, route } from '@/lib/pipeline/route';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(currentApiKeyOp, async ({ req, principal }) =>
  json(await describeCurrentKey(principal, clientAddress(req.headers))),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(currentApiKeyOp);
