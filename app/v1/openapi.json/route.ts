import { buildOpenApiDocument } from '@/lib/http/openapi';
import { json, publicRoute } from '@/lib/http/route';
import { allOperations, openApiOp } from '@/lib/openapi-operations';
import { otherMethods } from '@/lib/http/methods';

let document: unknown;

export const GET = publicRoute(openApiOp, async () => {
  document ??= buildOpenApiDocument(allOperations);
  return json(document, { headers: { 'cache-control': 'public, max-age=300' } });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods(openApiOp);
