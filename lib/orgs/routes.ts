import { json, route } from '../pipeline/route';
import { listOrganizationsOp, listProjectsOp } from './operations';
import { listOrganizations, listProjects } from './service';

// Route handlers that the console's first render also runs in process (server/console/shell-reads.ts): kept with
// their feature, so the server's code reaches them without importing a route file of app/v1.

export const listOrganizationsRoute = route(listOrganizationsOp, async ({ principal, query }) =>
  json(await listOrganizations(principal, query)),
);

export const listProjectsRoute = route(listProjectsOp, async ({ params, query }) =>
  json(await listProjects(params.orgId, query)),
);
