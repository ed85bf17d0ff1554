import { otherMethods } from '@/lib/http/methods';
import { json, route } from '@/lib/http/route';
import { getSecurityOp } from '@/lib/second-factor/operations';
import { securityOf } from '@/lib/second-factor/service';

export const GET = route(getSecurityOp, async ({ principal }) => json(await securityOf(principal)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(getSecurityOp);
