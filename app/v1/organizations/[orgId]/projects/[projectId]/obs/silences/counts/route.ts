import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';
import { countSilencesOp } from '@/lib/silences/operations';
import { countSilences } from '@/lib/silences/list-service';

export const GET = route(countSilencesOp, async ({ params }) =>
  json(await countSilences({ organizationId: params.orgId, projectId: params.projectId })),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods(countSilencesOp);
