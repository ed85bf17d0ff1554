import { alertmanagerOperations } from '@/lib/alertmanager/operations';
import { buildAlertmanagerDocument } from '@/lib/alertmanager/openapi';
import { json, publicRoute } from '@/lib/pipeline/route';
import { alertmanagerOpenApiOp } from '@/server/operations';
import { otherMethods } from '@/lib/pipeline/methods';

let document: unknown;

export const GET = publicRoute(alertmanagerOpenApiOp, async () => {
  document ??= buildAlertmanagerDocument(alertmanagerOperations);
  return json(document, { headers: { 'cache-control': 'public, max-age=300' } });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(alertmanagerOpenApiOp);
