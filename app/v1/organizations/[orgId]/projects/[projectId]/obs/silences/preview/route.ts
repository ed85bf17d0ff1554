import { previewSilenceOp } from '@/lib/alerts/operations';
import { previewSilence } from '@/lib/alerts/preview-service';
import { otherMethods } from '@/lib/pipeline/methods';
import { json, route } from '@/lib/pipeline/route';

export const POST = route(previewSilenceOp, async ({ params, body }) =>
  json(await previewSilence({ organizationId: params.orgId, projectId: params.projectId }, body.matchers)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods(previewSilenceOp);
