import { alertmanagerOperations } from '@/lib/alertmanager/operations';
import { buildAlertmanagerDocument } from '@/lib/http/openapi';
import { json, publicRoute } from '@/lib/http/route';
import { alertmanagerOpenApiOp } from '@/lib/openapi-operations';
import { otherMethods } from '@/lib/http/methods';

let document: unknown;

export const GET = publicRoute(alertmanagerOpenApiOp, async () => {
  document ??= buildAlertmanagerDocument(alertmanagerOperations);
  return json(document, { headers: { 'cache-control': 'public, max-age=300' } });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(alertmanagerOpenApiOp);
