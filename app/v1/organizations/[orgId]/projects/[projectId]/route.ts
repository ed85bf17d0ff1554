import { json, route } from '@/lib/pipeline/route';
import { updateProjectOp } from '@/lib/orgs/operations';
import { updateProject } from '@/lib/orgs/create-service';
import { otherMethods } from '@/lib/pipeline/methods';

export const PATCH = route(updateProjectOp, async ({ params, body, audit }) =>
  json(await updateProject(params.orgId, params.projectId, body, audit)),
);

export const { GET, POST, PUT, DELETE } = otherMethods(updateProjectOp);
