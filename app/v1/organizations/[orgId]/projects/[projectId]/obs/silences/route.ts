import { auditSource } from '@/lib/audit/source';
import { json, route } from '@/lib/pipeline/route';
import { createSilence } from '@/lib/silences/lifecycle-service';
import { createSilenceOp, listSilencesOp } from '@/lib/silences/operations';
import { listSilences } from '@/lib/silences/list-service';
import { silenceEtag } from '@/lib/silences/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(listSilencesOp, async ({ params, query }) =>
  json(await listSilences({ organizationId: params.orgId, projectId: params.projectId }, query)),
);

export const POST = route(createSilenceOp, async (ctx) => {
  const { params, body, principal, req } = ctx;
  const silence = await createSilence({
    scope: { organizationId: params.orgId, projectId: params.projectId },
    body,
    principal,
    source: auditSource(ctx),
  });
  return json(silence, {
    status: 201,
    headers: { etag: silenceEtag(silence), location: `${req.nextUrl.pathname}/${silence.id}` },
  });
});

export const { PUT, PATCH, DELETE } = otherMethods(listSilencesOp, createSilenceOp);
