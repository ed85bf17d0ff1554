import { json, route } from '../pipeline/route';
import { effectivePermissionsOp } from './operations';
import { effectivePermissions } from './service';

/** Also run in process by the console's first render (server/console/shell-reads.ts), so it lives with its feature. */
export const effectivePermissionsRoute = route(effectivePermissionsOp, async ({ params, principal }) =>
  json(await effectivePermissions(principal, params.orgId)),
);
