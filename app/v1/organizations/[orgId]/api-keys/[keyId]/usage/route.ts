import { otherMethods } from '@/lib/pipeline/methods';
import { apiKeyUsageOp } from '@/lib/api-keys/operations';
import { apiKeyUsageOf } from '@/lib/api-keys/usage-service';
import { json, route } from '@/lib/pipeline/route';

export const GET = route(apiKeyUsageOp, async ({ params }) => json(await apiKeyUsageOf(params.keyId)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(apiKeyUsageOp);
