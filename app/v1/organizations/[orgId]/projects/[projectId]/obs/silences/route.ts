import { json, route } from '@/lib/http/route';
import { listSilencesOp } from '@/lib/silences/operations';
import { listSilences } from '@/lib/silences/service';
import { otherMethods } from '@/lib/http/methods';

export const GET = route(listSilencesOp, async ({ params, query }) =>
  json(await listSilences({ organizationId: params.orgId, projectId: params.projectId }, query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(listSilencesOp);
