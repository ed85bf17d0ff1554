import { json, route } from '@/lib/http/route';
import { listProjectsOp } from '@/lib/orgs/operations';
import { listProjects } from '@/lib/orgs/service';

export const GET = route(listProjectsOp, async ({ params, query }) => json(await listProjects(params.orgId, query)));
