import { json, route } from '@/lib/http/route';
import { listProjectsOp } from '@/lib/orgs/operations';
import { listProjects } from '@/lib/orgs/service';
import { otherMethods } from '@/lib/http/methods';

export const GET = route(listProjectsOp, async ({ params, query }) => json(await listProjects(params.orgId, query)));

export const { POST, PUT, PATCH, DELETE } = otherMethods(listProjectsOp);
