import { auditSource } from '@/lib/audit/source';
import { notFound } from '@/lib/errors';
import { json, route } from '@/lib/pipeline/route';
import { expireSilence } from '@/lib/silences/lifecycle-service';
import { expireSilenceOp, getSilenceOp, updateSilenceOp } from '@/lib/silences/operations';
import { getSilence, silenceEtag, updateSilence } from '@/lib/silences/service';
import { otherMethods } from '@/lib/pipeline/methods';

export const GET = route(getSilenceOp, async ({ params }) => {
  const silence = await getSilence({ organizationId: params.orgId, projectId: params.projectId }, params.silenceId);
  if (!silence) throw notFound('Silence not found.');
  return json(silence, { headers: { etag: silenceEtag(silence) } });
});

export const PATCH = route(updateSilenceOp, async ({ params, body, headers, principal, audit }) => {
  const silence = await updateSilence({
    scope: { organizationId: params.orgId, projectId: params.projectId },
    silenceId: params.silenceId,
    body,
    ifMatch: headers['If-Match'] ?? null,
    principal,
    source: audit,
  });
  return json(silence, { headers: { etag: silenceEtag(silence) } });
});

export const DELETE = route(expireSilenceOp, async (ctx) => {
  const silence = await expireSilence({
    scope: { organizationId: ctx.params.orgId, projectId: ctx.params.projectId },
    silenceId: ctx.params.silenceId,
    ifMatch: ctx.headers['If-Match'] ?? null,
    principal: ctx.principal,
    source: auditSource(ctx),
  });
  return json(silence, { headers: { etag: silenceEtag(silence) } });
});

export const { POST, PUT } = otherMethods(getSilenceOp, updateSilenceOp, expireSilenceOp);
