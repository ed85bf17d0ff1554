import { json, route } from '@/lib/http/route';
import { callerPermissionsOp } from '@/lib/orgs/operations';
import { callerPermissions } from '@/lib/orgs/service';

export const GET = route(callerPermissionsOp, async ({ params, query, principal }) =>
  json(await callerPermissions(principal, params.orgId, query.projectId ?? null)),
);
