import { effectivePermissionsOp } from '@/lib/access/operations';
import { effectivePermissions } from '@/lib/access/service';
import { json, route } from '@/lib/http/route';

export const GET = route(effectivePermissionsOp, async ({ params, principal }) =>
  json(await effectivePermissions(principal, params.orgId)),
);
