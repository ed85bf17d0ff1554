import { effectivePermissionsOp } from '@/lib/access/operations';
import { effectivePermissions } from '@/lib/access/service';
import { json, route } from '@/lib/pipeline/route';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(effectivePermissionsOp, async ({ params, principal }) =>
  json(await effectivePermissions(principal, params.orgId)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(effectivePermissionsOp);
