import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { getSecurityOp } from '@/lib/second-factor/operations';
import { securityOf } from '@/lib/second-factor/service';

export const GET = route(getSecurityOp, async ({ principal }) => json(await securityOf(principal)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(getSecurityOp);
